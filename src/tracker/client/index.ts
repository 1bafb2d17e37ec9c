// Tern tracking script (served as /tracker.js): pageviews with engagement, automatic events, and the `tern` global API.
// Built into one minified IIFE by src/tracker/bundle.ts. It must never throw into the host page.
import { readConfig } from './config.ts';
import { optedOut, skipReason } from './guards.ts';
import { isSessionFresh, read, sessionId, visitorUid, write } from './storage.ts';
import { send } from './send.ts';
import { currentEngagement, resetEngagement, watchEngagement } from './engagement.ts';
import { watchNavigation } from './navigation.ts';
import { watchAutoEvents } from './auto-events.ts';

type Props = Record<string, unknown>;
type Traits = { name?: string; email?: string; avatar?: string; [key: string]: unknown };
type Purchase = { revenue: number | string; currency?: string; order_id?: string; properties?: Props };

/** sessionStorage key of the engagement of the last page shown in this tab, for the next page load to report. */
const PENDING = 'tern_prev';

const safe = <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) => {
  try {
    fn(...args);
  } catch {}
};

const w = window as any;
const script = (document.currentScript || document.querySelector('script[data-site]')) as HTMLScriptElement | null;
const config = readConfig(script);
const skip = skipReason(config);
if (skip) console.warn('[tern] not tracking: ' + skip);

const pageUrl = () => (config.hash ? location.href : location.href.replace(/#.*/, ''));
let currentPage = '';

function post(path: string, payload: Props) {
  if (!skip && !optedOut()) send(config.api + '/api/v1/' + path, payload);
}

/** An SPA pageview waiting for the router to set the new page's title. */
let pendingView: (() => void) | undefined;
const flushView = () => {
  const view = pendingView;
  pendingView = undefined;
  if (view) view();
};

function emit(event_type: string, event_name?: string, properties?: Props, extra?: Props) {
  // Whatever happens next belongs after the pageview that is still waiting.
  flushView();
  post('event', {
    site_id: config.site,
    event_type,
    event_name,
    url: pageUrl(),
    referrer: document.referrer || undefined,
    title: document.title || undefined,
    visitor_uid: visitorUid(),
    session_id: sessionId(),
    screen_w: screen.width,
    screen_h: screen.height,
    properties: properties && Object.keys(properties).length ? properties : undefined,
    ...extra,
  });
}

/** What the page this tab showed before this load saved when it went away (under 30 minutes ago); read once. */
function savedEngagement() {
  const [time, scroll, at] = (read(PENDING, 'sessionStorage') || '').split(',').map(Number);
  write(PENDING, null, 'sessionStorage');
  if (isSessionFresh(at) && time >= 0 && scroll >= 0) return { time_on_page: time, scroll_depth: scroll };
}

/**
 * `later`: sent 150 ms after the navigation (or at once when another event is sent or the page hides), because SPA
 * routers set document.title after pushState, and on a back/forward-cache restore the page just left, in another
 * renderer process, may still be saving its engagement. A fresh page load sends at once: a bounce must not be lost.
 */
function pageview(force?: boolean, later?: boolean) {
  const url = pageUrl();
  if (url == currentPage && !force) return;
  flushView();
  // An SPA route change reports the route being left directly; a fresh page reads what the last one saved.
  const previous = currentPage ? currentEngagement() : undefined;
  if (previous) write(PENDING, null, 'sessionStorage');
  currentPage = url;
  resetEngagement();
  pendingView = () => emit('pageview', undefined, undefined, { ...(previous || savedEngagement()), url });
  later ? setTimeout(flushView, 150) : flushView();
}

function rememberEngagement() {
  flushView();
  if (!currentPage) return;
  const e = currentEngagement();
  write(PENDING, [e.time_on_page, e.scroll_depth, Date.now()].join(','), 'sessionStorage');
}

const api = {
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
      site_id: config.site,
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

type Method = keyof typeof api;
/** `tern('track', 'Signup', {...})` and `tern.track('Signup', {...})` both work; unknown methods are ignored. */
const tern = Object.assign(
  safe((method: Method, ...args: any[]) => {
    if (Object.prototype.hasOwnProperty.call(api, method)) (api[method] as (...a: any[]) => void)(...args);
  }),
  Object.fromEntries(Object.entries(api).map(([k, fn]) => [k, safe(fn as (...a: any[]) => void)])),
);

safe(() => {
  // A second copy of the script on the same page would count everything twice.
  if (w.tern && w.tern.pageview) return;
  const queued: ArrayLike<unknown>[] = (w.tern && w.tern.q) || [];
  w.tern = tern;
  const start = safe(() => {
    watchEngagement(safe(rememberEngagement));
    if (config.pageviews) {
      watchNavigation(safe(() => pageview(false, true)), config.hash);
      pageview();
      // Back/forward cache: the restored page is a new view, and the page just left saved its engagement for it.
      addEventListener('pageshow', safe((e: PageTransitionEvent) => {
        if (e.persisted) pageview(!(currentPage = ''), true);
      }));
    }
    watchAutoEvents(config, safe(emit));
    // Calls made before the script loaded run after the first pageview, in their original order.
    for (const args of queued) tern.apply(null, Array.from(args) as [Method, ...unknown[]]);
  });
  // A prerendered page is not a view until the visitor actually opens it.
  const d = document as any;
  d.prerendering ? d.addEventListener('prerenderingchange', start, { once: true }) : start();
})();
