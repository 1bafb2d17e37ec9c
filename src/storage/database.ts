// The DuckDB handle: one instance per DATA_DIR, a small pool of connections, plain-JS rows out.
import { DuckDBInstance, LIST, listValue, VARCHAR, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Param = string | number | bigint | boolean | null | string[] | DuckDBValue;
export type Row = Record<string, any>;

export class DataDirLockedError extends Error {}

/** True for DuckDB's error when a statement needs more than memory_limit (DUCKDB_MEMORY_LIMIT). */
export const isOutOfMemory = (e: unknown) => /^Out of Memory Error/.test(String((e as Error)?.message));


/** DuckDB hands back bigint, Date and decimal wrappers; the API speaks JSON, so normalise once here. */
function toPlain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(toPlain);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as object)) out[k] = toPlain(x);
    return out;
  }
  return v;
}

/** DuckDB's answer to two transactions writing one row at once: the later one is aborted, nothing of it kept. */
export const isWriteConflict = (e: unknown) => /^TransactionContext Error: (Catalog write-write conflict|Conflict on)/.test(String((e as Error)?.message));

/**
 * A single statement (its own transaction) aborted by a write-write conflict is run again: it changed
 * nothing, and run after the other writer it sees that writer's row (two PATCHes of one goal at once were a
 * 500). Statements inside Database.transaction are not retried here: their transaction is gone.
 */
async function retryConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      if (attempt >= 8 || !isWriteConflict(e)) throw e;
      await new Promise((r) => setTimeout(r, Math.random() * 2 ** attempt));
    }
  }
}

/** JS arrays become DuckDB lists of VARCHAR (scopes, names, file paths), typed so that an empty one binds too. */
const bindable = (params: Param[]) => params.map((p) => (Array.isArray(p) ? listValue(p) : p)) as DuckDBValue[];
const typesOf = (params: Param[]) => params.map((p) => (Array.isArray(p) ? LIST(VARCHAR) : undefined)) as DuckDBType[];

class Pool {
  private idle: DuckDBConnection[] = [];
  private waiters: ((c: DuckDBConnection) => void)[] = [];
  constructor(conns: DuckDBConnection[]) { this.idle = conns; }
  async acquire(): Promise<DuckDBConnection> {
    const c = this.idle.pop();
    if (c) return c;
    return new Promise((r) => this.waiters.push(r));
  }
  release(c: DuckDBConnection) {
    const w = this.waiters.shift();
    if (w) w(c); else this.idle.push(c);
  }
}

/**
 * DuckDB threads for background work (live loads, compaction's merges), run through Database.withThreads.
 * On 2 cores a second thread cost a live load a quarter to a third more CPU per event for no shorter load
 * (bench/ingest-load.ts), CPU the event route's thread then waited for (bench/ingest.ts: it waited for a CPU
 * 11–13% of the run instead of 15–17%); one thread loads 50–75k events/s, more than the event route accepts,
 * and streams a merge in less memory. Imports and queries keep every core.
 */
export const BACKGROUND_THREADS = 1;

export class Database {
  private constructor(private instance: DuckDBInstance, private pool: Pool, private all: DuckDBConnection[], readonly dataDir: string) {}

  /** `memoryLimit`: DuckDB's buffer-pool budget (the server passes config DUCKDB_MEMORY_LIMIT). */
  static async open(dataDir: string, poolSize: number, memoryLimit: string): Promise<Database> {
    mkdirSync(dataDir, { recursive: true });
    let instance: DuckDBInstance;
    try {
      // Without a limit DuckDB may cache up to 80% of RAM. 2 GB holds a 12-month breakdown of 10M events
      // (distinct visitors per page over hot rows + Parquet needs ~1 GB); 256 MB keeps RSS flat for
      // ingest-only use but such queries then answer 503. Bigger work spills to DATA_DIR/tern.duckdb.tmp.
      // Ingestion commits a batch every second: checkpointing at 64 MB of WAL instead of 16 MB rewrites
      // the visits and visitors row groups a quarter as often (about 15% less CPU per event).
      instance = await DuckDBInstance.create(join(dataDir, 'tern.duckdb'), { memory_limit: memoryLimit, checkpoint_threshold: '64MB' });
    } catch (e) {
      const msg = String((e as Error)?.message ?? e);
      if (/lock/i.test(msg)) {
        throw new DataDirLockedError(`DATA_DIR ${dataDir} is in use by another Tern server (its database is locked); stop that server or choose another DATA_DIR`);
      }
      throw e;
    }
    const conns: DuckDBConnection[] = [];
    for (let i = 0; i < poolSize; i++) {
      const c = await instance.connect();
      // Stored timestamps are UTC; casts between TIMESTAMP and TIMESTAMPTZ must not depend on the host zone.
      await c.run("SET TimeZone = 'UTC'");
      conns.push(c);
    }
    // Parquet footers are cached across queries: files are immutable (a new name per write), and every query
    // would otherwise parse the footers of all the files its range touches again (5–10% of a 12-month scan).
    // A setting of the parquet extension, so it is set once that is loaded, not at instance creation.
    await conns[0]!.run('SET GLOBAL parquet_metadata_cache = true');
    // The funnel's materialized CTE is read by one consumer per step, each filtering on its step bit; DuckDB
    // would push the OR of those filters into the CTE, evaluated again on every step-matching event (~0.2 s
    // of thread time over 10M events, the funnel 10% slower). No other query here depends on the rewrite
    // (goal stats, the other CTE user, measured the same without it).
    await conns[0]!.run("SET GLOBAL disabled_optimizers = 'cte_filter_pusher'");
    // Each load batch builds and drops a few temporary tables; returning freed memory to the system after
    // tasks that peaked over 16 MB (default 128 MB) keeps the ingest server's RSS lower between batches
    // (bench/ingest, after 5M events: 454 → 388 MB in one run each; peaks ~550 MB either way), and so does
    // flushing after bulk frees over 16 MB (default 512 MB): after a 100k-event load, 196 → 128 MB.
    await conns[0]!.run(`SET GLOBAL allocator_flush_threshold = '16MB'`);
    await conns[0]!.run(`SET GLOBAL allocator_bulk_deallocation_flush_threshold = '16MB'`);
    return new Database(instance, new Pool(conns), conns, dataDir);
  }

  /** Run one statement with bound parameters and return its rows as plain JSON-ready objects. */
  query<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    return retryConflicts(() => this.withConnection((c) => new Tx(c).query<T>(sql, params)));
  }

  async one<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await this.query<T>(sql, params))[0];
  }

  exec(sql: string, params: Param[] = []): Promise<void> {
    return retryConflicts(() => this.withConnection((c) => new Tx(c).exec(sql, params)));
  }

  /**
   * Runs `fn` with DuckDB's worker threads limited to `threads`, then back to the default (one per core).
   * The setting is global: a query running meanwhile gets the same limit.
   */
  async withThreads<T>(threads: number, fn: () => Promise<T>): Promise<T> {
    await this.exec(`SET threads = ${Math.max(1, Math.trunc(threads))}`);
    try {
      return await fn();
    } finally {
      await this.exec('RESET threads');
    }
  }

  private async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await this.pool.acquire();
    try {
      return await fn(c);
    } finally {
      this.pool.release(c);
    }
  }

  /** Run fn on one connection inside BEGIN/COMMIT; rolled back if fn throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.withConnection(async (c) => {
      await c.run('BEGIN TRANSACTION');
      try {
        const out = await fn(new Tx(c));
        await c.run('COMMIT');
        return out;
      } catch (e) {
        await c.run('ROLLBACK').catch(() => {});
        throw e;
      }
    });
  }

  async close(): Promise<void> {
    for (const c of this.all) c.closeSync();
    this.instance.closeSync();
  }
}

/**
 * Statements without parameters skip the prepared-statement path: preparing parses the SQL and destroying the
 * statement is synchronous, both on the JS thread (a load's ~30 statements cost the event route ~3% of its
 * main-thread time that way).
 */
export class Tx {
  constructor(private c: DuckDBConnection) {}
  async query<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    const reader = params.length ? await this.c.runAndReadAll(sql, bindable(params), typesOf(params)) : await this.c.runAndReadAll(sql);
    return reader.getRowObjectsJS().map((r) => toPlain(r) as T);
  }
  async exec(sql: string, params: Param[] = []): Promise<void> {
    if (params.length) await this.c.run(sql, bindable(params), typesOf(params));
    else await this.c.run(sql);
  }
}
