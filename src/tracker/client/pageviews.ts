// Pageviews and the hand-over of engagement: each pageview reports the page viewed before it (spec §2.2), directly
// on an SPA route change, or through sessionStorage when the previous page was another document in this tab.
import { currentEngagement, resetEngagement } from './engagement.ts';
import { emit, flushView, pageUrl, queueView } from './events.ts';
import { isSessionFresh, read, write } from './storage.ts';

/** sessionStorage key: "<seconds>,<scroll %>,<saved at ms>" of the last page this tab showed. */
const SAVED = 'tern_prev';
let currentPage = '';

/** What the page this tab showed before saved when it went away (under 30 minutes ago); read once. */
function savedEngagement() {
  const [time, scroll, at] = (read(SAVED, 'sessionStorage') || '').split(',').map(Number);
  write(SAVED, null, 'sessionStorage');
  if (isSessionFresh(at) && time >= 0 && scroll >= 0) return { time_on_page: time, scroll_depth: scroll };
}

/**
 * `later`: sent 150 ms after the navigation (or at once when another event is sent or the page hides), because SPA
 * routers set document.title after pushState, and on a back/forward-cache restore the page just left, in another
 * renderer process, may still be saving its engagement. A fresh page load sends at once: a bounce must not be lost.
 */
export function pageview(force?: boolean, later?: boolean) {
  const url = pageUrl();
  if (url == currentPage && !force) return;
  flushView();
  const previous = currentPage ? currentEngagement() : undefined;
  if (previous) write(SAVED, null, 'sessionStorage');
  currentPage = url;
  resetEngagement();
  queueView(() => emit('pageview', undefined, undefined, { ...(previous || savedEngagement()), url }), later);
}

/** A page restored from the back/forward cache is a new view of a fresh document. */
export function restoredPageview() {
  currentPage = '';
  pageview(true, true);
}

/** Runs when the page may be going away: send what waits, and save this page's engagement for the next one. */
export function saveEngagement() {
  flushView();
  if (!currentPage) return;
  const e = currentEngagement();
  write(SAVED, [e.time_on_page, e.scroll_depth, Date.now()].join(','), 'sessionStorage');
}
