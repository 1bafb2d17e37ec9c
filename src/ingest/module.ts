// The `ingest` feature module: start replays the log and opens it, stop drains every accepted event into DuckDB.
import type { AppContext } from '../app-context.ts';
import type { Module } from '../module.ts';
import type { StorageModule } from '../storage/module.ts';
import { clearStaging } from './import.ts';
import { deleteSiteImports } from './import-idempotency.ts';
import { ingestRoutes, collectRoutes } from './routes.ts';
import { IngestService } from './service.ts';

export function ingestModule(storage: StorageModule): Module {
  let svc: IngestService | undefined;
  // One set of tracker routes: the runtime serves them directly (Bun), Elysia declares and serves them (Deno).
  let tracker: ReturnType<typeof collectRoutes> | undefined;
  const trackerOf = (ctx: AppContext) => (tracker ??= collectRoutes(ctx.config.trustProxy, () => svc!));
  return {
    name: 'ingest',
    async start(ctx) {
      clearStaging(ctx.config.dataDir);
      const { db, parquet, analyticsWrites, sites, config } = ctx;
      svc = new IngestService({ db, parquet, analyticsWrites, sites, dataDir: config.dataDir, loadIntervalMs: config.ingestLoadIntervalMs }, storage);
      await svc.start();
    },
    // Routes are composed after start, so the service is there by the first request.
    routes: (ctx, auth) => ingestRoutes(auth, () => svc!, trackerOf(ctx)),
    direct: trackerOf,
    dropSite: (tx, siteId) => deleteSiteImports(tx, siteId),
    async stop() {
      await svc?.stop();
    },
  };
}
