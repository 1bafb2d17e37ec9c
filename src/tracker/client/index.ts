// Tern tracking script (served as /tracker.js): reads its <script> tag, then wires pageviews, engagement, automatic
// events and the `tern` global. Built into one minified IIFE by src/tracker/bundle.ts.
import { readConfig } from './config.ts';
import { skipReason } from './guards.ts';
import { emit, setupEvents } from './events.ts';
import { pageview, restoredPageview, saveEngagement } from './pageviews.ts';
import { watchEngagement } from './engagement.ts';
import { watchNavigation } from './navigation.ts';
import { watchAutoEvents } from './auto-events.ts';
import { safe, tern } from './api.ts';

const w = window as any;

safe(() => {
  // A second copy of the script on the same page would count everything twice.
  if (w.tern && w.tern.pageview) return;
  const script = (document.currentScript || document.querySelector('script[data-site]')) as HTMLScriptElement | null;
  const config = readConfig(script);
  const skip = skipReason(config);
  if (skip) console.warn('[tern] not tracking: ' + skip);
  setupEvents(config, skip);
  // Calls queued by the stub `window.tern=window.tern||function(){(tern.q=tern.q||[]).push(arguments)}`.
  const queued: ArrayLike<unknown>[] = (w.tern && w.tern.q) || [];
  w.tern = tern;
  const start = safe(() => {
    watchEngagement(safe(saveEngagement));
    if (config.pageviews) {
      watchNavigation(safe(() => pageview(false, true)), config.hash);
      pageview();
      addEventListener('pageshow', safe((e: PageTransitionEvent) => e.persisted && restoredPageview()));
    }
    watchAutoEvents(config, safe(emit));
    // Calls made before the script loaded run after the first pageview, in their original order.
    for (const args of queued) tern.apply(null, Array.from(args) as [string, ...unknown[]]);
  });
  // A prerendered page is not a view until the visitor actually opens it.
  const d = document as any;
  d.prerendering ? d.addEventListener('prerenderingchange', start, { once: true }) : start();
})();
