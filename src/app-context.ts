// What every route module and service may depend on, built once by main/server.
// Feature modules keep their own state in their factory's closure (see module.ts).
import type { Config } from './config.ts';
import type { Database } from './storage/database.ts';
import type { SiteCache } from './sites/site-cache.ts';
import type { Limiter, RateLimiter } from './http/rate-limit.ts';
import type { MetaDb } from './storage/meta-db.ts';
import type { Serial } from './storage/serial.ts';
import type { KeyUsage } from './keys/service.ts';
import type { ParquetManifest } from './storage/parquet-layout.ts';
import type { QuerySources } from './query/parse/common-query.ts';

export type AppContext = {
  config: Config;
  db: Database;
  /** The Parquet files of DATA_DIR, per site and month: what tableSource() reads beside the DuckDB tables. */
  parquet: ParquetManifest;
  /** What the query engine reads (db and parquet above, and the goals feature's lookup for goal filters). */
  query: QuerySources;
  sites: SiteCache;
  /** Accounts, organizations, sites, keys, goals, funnels, annotations, shared links: `db` itself, or PostgreSQL with DATABASE_URL. */
  meta: MetaDb;
  /** `data`: per key, session or link, shared by every node with DATABASE_URL; `auth`: per client IP, per node. */
  limiters: { data: Limiter; auth: RateLimiter };
  /** Queue for writers of the analytics tables (loader, identify, compaction, site deletion): DuckDB aborts one of two transactions touching the same rows. */
  analyticsWrites: Serial;
  /** API keys' last-use times, batched in memory and flushed every few seconds. */
  keyUsage: KeyUsage;
};
