// The `tern` global: track, purchase, identify, pageview, optOut/optIn, callable as tern.x(...) or tern('x', ...).
import { emit, post, type Props } from './events.ts';
import { pageview } from './pageviews.ts';
import { visitorUid, write } from './storage.ts';

type Traits = { name?: string; email?: string; avatar?: string; [key: string]: unknown };
type Purchase = { revenue: number | string; currency?: string; order_id?: string; properties?: Props };
type Fn = (...args: any[]) => void;

/** Every entry point swallows its own errors: the tracker must never throw into the host page. */
export const safe = <F extends Fn>(fn: F) => ((...args: any[]) => {
  try {
    fn(...args);
  } catch {}
}) as F;

const methods = {
  pageview: () => pageview(true),
  track: (name: string, properties?: Props) => emit('custom', String(name), properties),
  purchase: (p: Purchase) => {
    const revenue = Number(p.revenue);
    emit('purchase', 'Purchase', p.properties, {
      revenue: isFinite(revenue) ? revenue : undefined,
      currency: p.currency,
      order_id: p.order_id == null ? undefined : String(p.order_id),
    });
  },
  identify: (userId: string, traits: Traits = {}) => {
    if (userId == null || userId === '') return;
    const { name, email, avatar, ...custom } = traits;
    post('identify', {
      visitor_uid: visitorUid(),
      user_id: String(userId),
      name,
      email,
      avatar,
      custom: Object.keys(custom).length ? custom : undefined,
    });
  },
  optOut: () => write('tern_ignore', 'true'),
  optIn: () => write('tern_ignore', null),
};

/** `tern('track', 'Signup', {...})` and `tern.track('Signup', {...})` both work; unknown methods are ignored. */
export const tern = Object.assign(
  safe((method: string, ...args: unknown[]) => {
    if (Object.prototype.hasOwnProperty.call(methods, method)) (methods[method as keyof typeof methods] as Fn)(...args);
  }),
  Object.fromEntries(Object.entries(methods).map(([name, fn]) => [name, safe(fn as Fn)])),
);
