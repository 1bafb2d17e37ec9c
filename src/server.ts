// Composes the app: storage → caches → feature modules → routes; start() serves, stop() drains.
import { Elysia } from 'elysia';
import type { Config } from './config.ts';
import type { AppContext } from './app-context.ts';
import type { Module } from './module.ts';
import { Database } from './storage/database.ts';
import { migrate } from './storage/migrate.ts';
import { SiteCache } from './sites/site-cache.ts';
import { Serial } from './storage/serial.ts';
import { ParquetManifest } from './storage/parquet-layout.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { errorHandler } from './http/error-handler.ts';
import { authPlugin } from './http/auth.ts';
import { openapiPlugin } from './http/openapi.ts';
import { docsRoutes } from './http/docs-page.ts';
import { healthRoutes } from './http/health.ts';
import { accountRoutes } from './accounts/routes.ts';
import { organizationRoutes } from './organizations/routes.ts';
import { siteRoutes } from './sites/routes.ts';
import { keyRoutes } from './keys/routes.ts';
import { ingestModule } from './ingest/module.ts';
import { goalsModule } from './goals/module.ts';
import { funnelsModule } from './funnels/module.ts';
import { annotationsModule } from './annotations/module.ts';
import { visitorsModule } from './visitors/module.ts';
import { KeyUsage } from './keys/service.ts';
import { serve, type RunningServer } from './runtime/index.ts';
import { log, setLogLevel } from './log.ts';
import { trackerModule } from './tracker/module.ts';
import { webModule } from './web/module.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { sharesModule } from './shares/module.ts';

/** Every feature, in start order, fresh per server. Add a module here; nothing else in this file needs to change. */
const modules = (): Module[] => [
  { name: 'accounts', routes: accountRoutes },
  { name: 'organizations', routes: organizationRoutes },
  { name: 'sites', routes: siteRoutes },
  { name: 'keys', routes: keyRoutes },
  { name: 'analytics', routes: analyticsRoutes },
  ingestModule(),
  goalsModule,
  funnelsModule,
  annotationsModule,
  visitorsModule,
  sharesModule,
  trackerModule(),
  webModule(),
];

function createApp(ctx: AppContext, features: Module[]) {
  const auth = authPlugin(ctx);
  let app = new Elysia()
    .use(errorHandler)
    .use(openapiPlugin())
    .use(docsRoutes())
    .use(healthRoutes);
  for (const m of features) if (m.routes) app = app.use(m.routes(ctx, auth)) as any;
  return app;
}

export type Tern = { port: number; ctx: AppContext; stop(): Promise<void> };

export async function startServer(config: Config): Promise<Tern> {
  setLogLevel(config.logLevel);
  const db = await Database.open(config.dataDir, 4, config.duckdbMemoryLimit);
  const applied = await migrate(db);
  if (applied.length) log.info('migrations applied', { applied });
  // Before any module starts: its orphan sweep must not see files that the ingest log's replay writes.
  const parquet = new ParquetManifest(config.dataDir);
  await parquet.load(db);
  const ctx: AppContext = {
    config,
    db,
    parquet,
    sites: await SiteCache.load(db),
    limiters: { data: new RateLimiter(600), auth: new RateLimiter(config.authRateLimit) },
    analyticsWrites: new Serial(),
    keyUsage: new KeyUsage(db),
  };
  const features = modules();
  for (const m of features) await m.start?.(ctx);
  const app = createApp(ctx, features);
  const direct = Object.assign({}, ...features.map((m) => m.direct?.(ctx) ?? {}));
  const server: RunningServer = await serve((req) => app.handle(req), { port: config.port, hostname: config.host }, direct);
  log.info('listening', { port: server.port, host: config.host, dataDir: config.dataDir });
  let stopping: Promise<void> | undefined;
  return {
    port: server.port,
    ctx,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop();
        for (const m of [...features].reverse()) await m.stop?.(ctx);
        await ctx.keyUsage.stop();
        await db.close();
      })()),
  };
}
