// The `ingest` feature module: start replays the log and opens it, stop drains every accepted event into DuckDB.
import type { Module } from '../module.ts';
import { clearStaging } from './import.ts';
import { ingestRoutes } from './routes.ts';
import { IngestService } from './service.ts';

export const ingestModule: Module = {
  name: 'ingest',
  async start(ctx) {
    clearStaging(ctx.config.dataDir);
    const svc = new IngestService(ctx);
    await svc.start();
    ctx.extras.ingest = svc;
  },
  routes: ingestRoutes,
  async stop(ctx) {
    await (ctx.extras.ingest as IngestService | undefined)?.stop();
  },
};
