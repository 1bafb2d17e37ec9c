// The dashboard feature: builds (or loads the cached build of) the SPA as the server starts, then serves it.
import type { Module } from '../module.ts';
import { log } from '../log.ts';
import { INITIAL_BUDGET, loadDashboard, TOTAL_BUDGET, type DashboardBuild } from './bundle.ts';
import { webRoutes } from './routes.ts';

export function webModule(): Module {
  let build: Promise<DashboardBuild | undefined> = Promise.resolve(undefined);
  return {
    name: 'web',
    async start(ctx) {
      // Not awaited: the API (and ingestion) serve at once while the bundler runs; page requests wait for it.
      build = loadDashboard(ctx.config.dataDir).then(
        (b) => {
          const fields = { initial_gzip_bytes: b.initialGzipBytes, total_gzip_bytes: b.totalGzipBytes, source: b.source };
          if (b.initialGzipBytes > INITIAL_BUDGET || b.totalGzipBytes > TOTAL_BUDGET) log.warn('dashboard is over its size budget', fields);
          else log.info('dashboard ready', fields);
          return b;
        },
        (e) => {
          // The API must keep running without the dashboard; pages answer 503 until the next successful start.
          log.error('dashboard could not be built', { error: String(e) });
          return undefined;
        },
      );
    },
    routes: () => webRoutes(() => build),
  };
}
