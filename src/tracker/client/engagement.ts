// Engagement of the page being viewed: visible time only (Page Visibility API) and maximum scroll depth, reset per pageview.
let visibleMs = 0;
/** When the page last became visible; 0 while hidden. */
let visibleSince = 0;
let maxScroll = 0;

function scrollPercent(): number {
  const doc = document.documentElement;
  const height = Math.max(doc.scrollHeight, document.body ? document.body.scrollHeight : 0);
  const seen = (window.scrollY || doc.scrollTop) + window.innerHeight;
  return height ? Math.min(100, Math.round((seen / height) * 100)) : 0;
}

function measureScroll() {
  maxScroll = Math.max(maxScroll, scrollPercent());
}

export function resetEngagement() {
  visibleMs = 0;
  visibleSince = document.visibilityState == 'visible' ? Date.now() : 0;
  maxScroll = 0;
  // Not measured at once: before `load` images may still grow the page, and on an SPA navigation the router
  // usually scrolls the new route to the top only after pushState. Later scrolls are measured as they happen.
  if (document.readyState == 'complete') setTimeout(measureScroll, 300);
}

export function currentEngagement() {
  const ms = visibleMs + (visibleSince ? Date.now() - visibleSince : 0);
  return { time_on_page: Math.round(ms / 1000), scroll_depth: maxScroll };
}

/** Starts measuring; `onHide` runs whenever the page may be about to go away (hidden, pagehide). */
export function watchEngagement(onHide: () => void) {
  addEventListener('scroll', measureScroll, { passive: true });
  addEventListener('load', measureScroll);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState == 'visible') {
      visibleSince = Date.now();
    } else {
      if (visibleSince) visibleMs += Date.now() - visibleSince;
      visibleSince = 0;
      onHide();
    }
  });
  addEventListener('pagehide', onHide);
}
