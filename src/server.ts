// Composes the app: storage → caches → feature modules → routes; start() serves, stop() drains.
import { Elysia } from 'elysia';
import process from 'node:process';
import { ConfigError, type Config } from './config.ts';
import type { AppContext } from './app-context.ts';
import type { Module } from './module.ts';
import { reclaimFreeBlocks } from './storage/reclaim-free-blocks.ts';
import { Database } from './storage/database.ts';
import { migrate } from './storage/migrate.ts';
import { SiteCache } from './sites/site-cache.ts';
import { Serial } from './storage/serial.ts';
import { ParquetManifest } from './storage/parquet-layout.ts';
import { storageModule, type StorageModule } from './storage/module.ts';
import { RateLimiter, SharedRateLimiter } from './http/rate-limit.ts';
import type { MetaDb } from './storage/meta-db.ts';
import { PostgresDatabase } from './storage/postgres.ts';
import { migratePostgres } from './storage/migrate-postgres.ts';
import { metadataHomeProblem } from './storage/metadata-home.ts';
import { countRequest, sweepRequestCounts } from './storage/rate-windows.ts';
import { cacheCredentialsInProcess } from './security/credential-cache.ts';
import { SiteMirror } from './sites/site-mirror.ts';
import { errorHandler } from './http/error-handler.ts';
import { authPlugin } from './access/auth.ts';
import { openapiPlugin } from './http/openapi.ts';
import { docsRoutes } from './http/docs-page.ts';
import { healthRoutes } from './http/health.ts';
import { keepUndecodableParams } from './http/path-params.ts';
import { accountsModule } from './accounts/module.ts';
import { organizationsModule } from './organizations/module.ts';
import { sitesModule } from './sites/module.ts';
import type { DropSite } from './sites/service.ts';
import { keysModule } from './keys/module.ts';
import { ingestModule } from './ingest/module.ts';
import { goalsModule } from './goals/module.ts';
import { funnelsModule } from './funnels/module.ts';
import { annotationsModule } from './annotations/module.ts';
import { visitorsModule } from './visitors/module.ts';
import { KeyUsage } from './keys/service.ts';
import { goalsByIds } from './goals/service.ts';
import { serve, type RunningServer } from './runtime/index.ts';
import { log, setLogLevel } from './log.ts';
import { trackerModule } from './tracker/module.ts';
import { analyticsModule } from './analytics/module.ts';
import { webModule } from './web/module.ts';
import { sharesModule } from './shares/module.ts';
import { setPausePoint } from './storage/pause-point.ts';
import { setStatementDelay } from './query/run.ts';
import { erasureModule } from './visitors/erase-module.ts';
import { exportsModule } from './exports/module.ts';

/**
 * Every module, in start order (stopped in reverse), fresh per server: storage first, so that it stops last.
 * Add a module here; nothing else in this file needs to change.
 */
const modules = (storage: StorageModule, dropSite: DropSite): Module[] => [
  storage,
  accountsModule(),
  organizationsModule(),
  sitesModule(dropSite),
  keysModule(),
  analyticsModule(),
  ingestModule(storage),
  goalsModule(),
  funnelsModule(),
  annotationsModule(),
  visitorsModule(),
  sharesModule(),
  erasureModule(),
  exportsModule(),
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
  keepUndecodableParams(app);
  return app;
}

export type Tern = { port: number; ctx: AppContext; stop(): Promise<void> };

/** Per key, session or shared link, per minute (contract §5). */
const DATA_RATE_LIMIT = 600;

/** DATABASE_URL → the migrated PostgreSQL metadata store; a DATA_DIR whose metadata lives in DuckDB is refused. */
async function openPostgres(url: string, db: Database): Promise<PostgresDatabase> {
  const problem = await metadataHomeProblem(db, true);
  if (problem) throw new ConfigError(problem);
  let pg: PostgresDatabase;
  try {
    pg = await PostgresDatabase.open(url);
  } catch (e) {
    throw new ConfigError(`DATABASE_URL: cannot connect to PostgreSQL: ${(e as Error)?.message ?? e}`);
  }
  const applied = await migratePostgres(pg);
  if (applied.length) log.info('PostgreSQL migrations applied', { applied });
  return pg;
}

export async function startServer(config: Config): Promise<Tern> {
  setLogLevel(config.logLevel);
  setPausePoint(config.testPauseAt);
  setStatementDelay(config.testStatementDelayMs);
  await reclaimFreeBlocks(config.dataDir, config.duckdbMemoryLimit);
  const db = await Database.open(config.dataDir, 4, config.duckdbMemoryLimit, { reuseStatements: true });
  const applied = await migrate(db);
  if (applied.length) log.info('migrations applied', { applied });
  const pg = config.databaseUrl ? await openPostgres(config.databaseUrl, db) : undefined;
  if (!pg) {
    const problem = await metadataHomeProblem(db, false);
    if (problem) throw new ConfigError(problem);
  }
  const meta: MetaDb = pg ?? db;
  // Another node may revoke a key or end a session: with a shared store each request checks it there.
  cacheCredentialsInProcess(!pg);
  // Before any module starts: its orphan sweep must not see files that the ingest log's replay writes.
  const parquet = new ParquetManifest(config.dataDir);
  await parquet.load(db);
  // Loaded only when configured: without CLICKHOUSE_URL no ClickHouse code is imported.
  const clickhouse = config.clickhouse ? await (await import('./storage/clickhouse/store.ts')).openClickHouseStore(db, parquet, config.clickhouse, config.objectStorage) : undefined;
  const ctx: AppContext = {
    config,
    db,
    parquet,
    meta,
    query: {
      db, meta, files: parquet, goals: (siteId, ids) => goalsByIds(meta, siteId, ids),
      engine: config.analyticsEngine === 'clickhouse' && clickhouse ? (await import('./query/clickhouse-engine.ts')).clickhouseEngine(clickhouse, clickhouse.objects) : undefined,
    },
    sites: await SiteCache.load(meta),
    limiters: {
      data: pg ? new SharedRateLimiter((who, windowMs) => countRequest(pg, who, windowMs), DATA_RATE_LIMIT) : new RateLimiter(DATA_RATE_LIMIT),
      auth: new RateLimiter(config.authRateLimit),
    },
    analyticsWrites: new Serial(),
    keyUsage: new KeyUsage(meta),
  };
  if (config.testHooks) {
    process.on('SIGUSR2', () => void db.armCheckpointFault().then(() => log.info('test hook: checkpoint fault armed')));
  }
  // Deleting a site is one path: each module that keeps something of a site drops it, in one transaction.
  const eachModule = async (step: (m: Module) => Promise<void | (() => void)> | undefined) => {
    const after: (() => void)[] = [];
    for (const m of features) {
      const done = await step(m);
      if (done) after.push(done);
    }
    return after;
  };
  const dropSite: DropSite = {
    meta: (tx, siteId) => eachModule((m) => m.dropSiteMeta?.(tx, siteId)),
    stored: (tx, siteId) => eachModule((m) => m.dropSite?.(tx, siteId)),
  };
  const storage = storageModule(db, parquet, ctx.analyticsWrites, config.objectStorage, clickhouse?.mirror, config.testHotFlushRows, config.testCompaction);
  const features = modules(storage, dropSite);
  if (config.testHooks) {
    // Tests only: SIGUSR1 seals every visit now, as compaction would 36 minutes from now (a later event of such a
    // visit would start its row again): nodes reading objects then see the visits a test just made.
    process.on('SIGUSR1', () => void storage.compact({ now: Date.now() + 36 * 60_000 }).then(() => log.info('test hook: visits sealed')));
  }
  for (const m of features) await m.start?.(ctx);
  // With PostgreSQL: sites made, changed or deleted by any node reach this one's cache and stored data.
  const mirror = pg && new SiteMirror(pg, db, ctx.sites, ctx.analyticsWrites, dropSite);
  await mirror?.start();
  const sweep = pg && setInterval(() => void sweepRequestCounts(pg, 60_000).catch(() => {}), 5 * 60_000);
  if (sweep) (sweep as any).unref?.();
  const app = createApp(ctx, features);
  const direct = Object.assign({}, ...features.map((m) => m.direct?.(ctx) ?? {}));
  const server: RunningServer = await serve((req) => app.handle(req), { port: config.port, hostname: config.host, idleTimeoutS: config.httpIdleTimeoutS }, direct);
  log.info('listening', { port: server.port, host: config.host, dataDir: config.dataDir });
  let stopping: Promise<void> | undefined;
  return {
    port: server.port,
    ctx,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop();
        clearInterval(sweep || undefined);
        await mirror?.stop();
        for (const m of [...features].reverse()) await m.stop?.(ctx);
        await ctx.keyUsage.stop();
        await clickhouse?.close();
        await pg?.close();
        await db.close();
      })()),
  };
}
