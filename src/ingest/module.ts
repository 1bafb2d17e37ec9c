// The `ingest` feature module: start replays the log and opens it, stop drains every accepted event into DuckDB.
import type { Module } from '../module.ts';
import { clearStaging } from './import.ts';
import { ingestRoutes, trackerRoutes } from './routes.ts';
import { IngestService } from './service.ts';

export function ingestModule(): Module {
  let svc: IngestService | undefined;
  return {
    name: 'ingest',
    async start(ctx) {
      clearStaging(ctx.config.dataDir);
      svc = new IngestService(ctx);
      await svc.start();
    },
    // Routes are composed after start, so the service is there by the first request.
    routes: (ctx, auth) => ingestRoutes(ctx, auth, () => svc!),
    direct: (ctx) => trackerRoutes(ctx, () => svc!),
    async stop() {
      await svc?.stop();
    },
  };
}
