// The client-side router: the current URL as a signal, pushState/replaceState navigation, and <a> interception.
import { signal } from '@preact/signals';

export type Loc = { path: string; search: string };

const read = (): Loc => ({ path: location.pathname, search: location.search });

/** The current URL; every view derives from it, so reload, back and forward restore the same state. */
export const loc = signal<Loc>(read());

addEventListener('popstate', () => (loc.value = read()));

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const before = location.pathname;
  history[opts.replace ? 'replaceState' : 'pushState'](null, '', to);
  loc.value = read();
  if (location.pathname !== before) scrollTo(0, 0);
}

/** The search params of the current URL with `changes` applied (null or '' deletes a key). */
export function withParams(changes: Record<string, string | null | undefined>, base = loc.value.search): string {
  const q = new URLSearchParams(base);
  for (const [k, v] of Object.entries(changes)) if (v === null || v === undefined || v === '') q.delete(k); else q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Follows same-origin links without a page load (left click without modifiers, no target, no download). */
addEventListener('click', (e: MouseEvent) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
  e.preventDefault();
  navigate(a.pathname + a.search + a.hash);
});
