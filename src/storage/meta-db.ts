// The metadata store's interface (accounts, organizations, sites, keys, goals, funnels, annotations, shared
// links): DuckDB by default, PostgreSQL with DATABASE_URL. Services write one SQL text for both (`?` params).
export type MetaParam = string | number | boolean | null | string[];
export type MetaRow = Record<string, any>;

export interface MetaTx {
  query<T extends MetaRow = MetaRow>(sql: string, params?: MetaParam[]): Promise<T[]>;
  exec(sql: string, params?: MetaParam[]): Promise<void>;
}

export interface MetaDb extends MetaTx {
  /** 'postgres' when several nodes may share the store: per-process caches of its rows must not be trusted. */
  readonly dialect: 'duckdb' | 'postgres';
  one<T extends MetaRow = MetaRow>(sql: string, params?: MetaParam[]): Promise<T | undefined>;
  transaction<T>(fn: (tx: MetaTx) => Promise<T>): Promise<T>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path id as a UUID parameter, or null when it is none (then `id = ?::UUID` matches nothing): PostgreSQL
 * has no TRY_CAST, and a cast that fails there aborts the statement.
 */
export const uuidOrNull = (id: string): string | null => (UUID.test(id) ? id.toLowerCase() : null);

/**
 * Transactions about one `key` (an organization's key creations: count, then insert) one at a time on
 * every node: PostgreSQL's transaction-scoped advisory lock. The DuckDB store has one process, whose callers
 * already queue in memory (SerialByKey).
 */
export const lockAcrossNodes = (db: MetaDb, tx: MetaTx, key: string): Promise<void> =>
  db.dialect === 'postgres' ? tx.exec('SELECT pg_advisory_xact_lock(hashtext(?))', [key]) : Promise.resolve();
