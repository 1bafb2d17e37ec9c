// A feature module: its routes plus optional start/stop work (e.g. ingestion's log and loader).
import type { Elysia } from 'elysia';
import type { AppContext } from './app-context.ts';
import type { authPlugin } from './access/auth.ts';
import type { DirectRoute } from './runtime/index.ts';
import type { Tx } from './storage/database.ts';
import type { MetaTx } from './storage/meta-db.ts';

export type Auth = ReturnType<typeof authPlugin>;

export type Module = {
  name: string;
  /** Runs before the server accepts requests, in list order (e.g. replay the ingest log). */
  start?(ctx: AppContext): Promise<void>;
  /** Routes, composed in list order. */
  routes?(ctx: AppContext, auth: Auth): Elysia<any, any, any, any, any, any, any>;
  /** POST routes the runtime serves ahead of the framework (runtime DirectRoute); `routes` declares them too. */
  direct?(ctx: AppContext): Record<string, DirectRoute>;
  /**
   * Deletes what the module keeps of a site, in the one transaction that deletes the site (queued behind the
   * analytics writers); may return a step to run once it committed (e.g. removing the site's files).
   */
  dropSite?(tx: Tx, siteId: string): Promise<void | (() => void)>;
  /**
   * Deletes the module's metadata of a site (goals, links…), in the metadata store's transaction that deletes
   * the site's row: the same DuckDB transaction as `dropSite` by default, a PostgreSQL one committed before
   * `dropSite`'s with DATABASE_URL (sites/service.ts).
   */
  dropSiteMeta?(tx: MetaTx, siteId: string): Promise<void | (() => void)>;
  /** Runs after the server stopped accepting requests, in reverse order (e.g. flush accepted events). */
  stop?(ctx: AppContext): Promise<void>;
};
