// What every route module and service may depend on, built once by main/server.
import type { Config } from './config.ts';
import type { Database } from './storage/database.ts';
import type { SiteCache } from './sites/site-cache.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { Serial } from './storage/serial.ts';

export type AppContext = {
  config: Config;
  db: Database;
  sites: SiteCache;
  limiters: { data: RateLimiter; auth: RateLimiter };
  /** Queue for writers of the analytics tables (loader, identify, compaction, site deletion): DuckDB aborts one of two transactions touching the same rows. */
  analyticsWrites: Serial;
  /** Ingestion and the other subsystems attach here as they are built (see server.ts). */
  extras: Record<string, unknown>;
};
