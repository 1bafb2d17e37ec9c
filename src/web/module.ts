// The dashboard feature: builds (or loads the cached build of) the SPA before the server accepts requests, then serves it.
import type { Module } from '../module.ts';
import { log } from '../log.ts';
import { INITIAL_BUDGET, loadDashboard, TOTAL_BUDGET, type DashboardBuild } from './bundle.ts';
import { webRoutes } from './routes.ts';

export function webModule(): Module {
  let build: DashboardBuild | undefined;
  return {
    name: 'web',
    async start(ctx) {
      try {
        build = await loadDashboard(ctx.config.dataDir);
        const fields = { initial_gzip_bytes: build.initialGzipBytes, total_gzip_bytes: build.totalGzipBytes, cached: build.cached };
        if (build.initialGzipBytes > INITIAL_BUDGET || build.totalGzipBytes > TOTAL_BUDGET) log.warn('dashboard is over its size budget', fields);
        else log.info('dashboard ready', fields);
      } catch (e) {
        // The API must keep running without the dashboard; pages answer 503 until the next successful start.
        log.error('dashboard could not be built', { error: String(e) });
      }
    },
    routes: () => webRoutes(() => build),
  };
}
