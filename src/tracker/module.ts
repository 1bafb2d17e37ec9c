// The tracker feature: builds the script before the server accepts requests, then serves it at /tracker.js.
import type { Module } from '../module.ts';
import { log } from '../log.ts';
import { GZIP_BUDGET, loadTracker, type TrackerAsset } from './bundle.ts';
import { trackerScriptRoutes } from './routes.ts';

export function trackerModule(): Module {
  let asset: TrackerAsset | undefined;
  return {
    name: 'tracker',
    async start(ctx) {
      try {
        asset = await loadTracker(ctx.config.dataDir);
        const fields = { bytes: asset.bytes, gzip_bytes: asset.gzipBytes, cached: asset.cached };
        if (asset.gzipBytes > GZIP_BUDGET) log.warn('tracker.js is over its 3 KB gzip budget', fields);
        else log.info('tracker.js ready', fields);
      } catch (e) {
        // Analytics must keep running without the script; /tracker.js answers 503 until the next successful start.
        log.error('tracker.js could not be built', { error: String(e) });
      }
    },
    routes: () => trackerScriptRoutes(() => asset),
  };
}
