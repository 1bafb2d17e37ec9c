// The DuckDB handle: one instance per DATA_DIR, a small pool of connections, plain-JS rows out.
import { JSDuckDBValueConverter, LIST, listValue, VARCHAR, type DuckDBConnection, type DuckDBMaterializedResult, type DuckDBPreparedStatement, type DuckDBInstance, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import type { Pool } from './connection-pool.ts';
import { PublishGate } from './publish-gate.ts';
import { ARM_CHECKPOINT_FAULT, openInstance } from './open-instance.ts';
import { log } from '../log.ts';
import { withPrepared } from './statement-cache.ts';

export type Param = string | number | bigint | boolean | null | string[] | DuckDBValue;
export type Row = Record<string, any>;

export { DataDirLockedError } from './open-instance.ts';

/** True for DuckDB's error when a statement needs more than memory_limit (DUCKDB_MEMORY_LIMIT). */
export const isOutOfMemory = (e: unknown) => /^Out of Memory Error/.test(String((e as Error)?.message));

/**
 * DuckDB's FATAL and INTERNAL errors invalidate the whole instance: every later statement fails with
 * "database has been invalidated" until the database is reopened.
 */
const isFatal = (e: unknown) => /^(FATAL|INTERNAL) Error|database has been invalidated/.test(String((e as Error)?.message));
/** A statement refused because the instance was already invalidated: it did nothing and may run again. */
const wasRefused = (e: unknown) => /database has been invalidated/.test(String((e as Error)?.message));

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

/**
 * DuckDB threads for background work (live loads, compaction's merges), run through Database.withThreads.
 * On 2 cores a second thread cost a live load a quarter to a third more CPU per event for no shorter load
 * (bench/ingest-load.ts), CPU the event route's thread then waited for (bench/ingest.ts: it waited for a CPU
 * 11–13% of the run instead of 15–17%); one thread loads 50–75k events/s, more than the event route accepts,
 * and streams a merge in less memory. DuckDB's thread count is global to the instance, so a query that overlaps
 * such work runs on one thread too (docs/storage.md); imports of up to 250k events take one thread as well
 * (ingest/import.ts), larger imports and queries keep every core.
 */
export const BACKGROUND_THREADS = 1;

type Handle = { instance: DuckDBInstance; pool: Pool };

export type Lease = { c: DuckDBConnection; release(): void; failed(e: unknown): void };

export class Database {
  /** As a metadata store (storage/meta-db.ts): the default one, private to this process's DATA_DIR. */
  readonly dialect = 'duckdb' as const;
  /** Set while an invalidated instance is being replaced: new work waits for the new one. */
  private reopening: Promise<void> | undefined;
  /** Bumped by each reopen, so that many failures of one instance reopen it once. */
  private generation = 0;
  /** Commits that publish a change of the Parquet files, and the queries' snapshots (storage/snapshot.ts), pass here. */
  readonly gate = new PublishGate();
  /** Connections held by lease(), and those waiting for one. */
  private leased = 0;
  private leaseWaiters: (() => void)[] = [];

  private constructor(private handle: Handle, readonly dataDir: string, private poolSize: number, private memoryLimit: string, private reuse: boolean) {}

  /**
   * `memoryLimit`: DuckDB's buffer-pool budget (the server passes config DUCKDB_MEMORY_LIMIT). `reuseStatements`:
   * keep prepared statements per connection and reuse them by text (storage/statement-cache.ts); the server does,
   * a one-off script (a benchmark's hand-written side) prepares each statement as it runs it.
   */
  static async open(dataDir: string, poolSize: number, memoryLimit: string, opts: { reuseStatements?: boolean } = {}): Promise<Database> {
    return new Database(await openInstance(dataDir, poolSize, memoryLimit), dataDir, poolSize, memoryLimit, opts.reuseStatements ?? false);
  }

  /** Run one statement with bound parameters and return its rows as plain JSON-ready objects. */
  query<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    return retryConflicts(() => this.withConnection((c) => new Tx(c, this.reuse).query<T>(sql, params)));
  }

  async one<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await this.query<T>(sql, params))[0];
  }

  exec(sql: string, params: Param[] = []): Promise<void> {
    return retryConflicts(() => this.withConnection((c) => new Tx(c, this.reuse).exec(sql, params)));
  }

  /** Runs under withThreads: the limit is reset when the last of them ends, not by the first. */
  private limited = 0;

  /**
   * Runs `fn` with DuckDB's worker threads limited to `threads` (every caller passes BACKGROUND_THREADS), then
   * back to the default (one per core). The setting is global: a query running meanwhile gets the same limit, and
   * work in the writers' queue overlaps work beside it (a merge: compaction-merge.ts), so the runs are counted.
   */
  async withThreads<T>(threads: number, fn: () => Promise<T>): Promise<T> {
    if (this.limited++ === 0) await this.exec(`SET threads = ${Math.max(1, Math.trunc(threads))}`);
    try {
      return await fn();
    } finally {
      if (--this.limited === 0) await this.exec('RESET threads');
    }
  }

  /**
   * `fn` on a pooled connection. A FATAL or INTERNAL error from DuckDB invalidates its instance: the first
   * one seen reopens it (reopen), so one failing statement never leaves every later one failing. A
   * statement refused because the instance was already invalidated did nothing and runs again on the
   * new instance when `rerunRefused` (single statements; not transactions, whose work may be half done).
   */
  private async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>, rerunRefused = true): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      await this.reopening;
      const { generation, handle } = this;
      let c: DuckDBConnection | undefined;
      try {
        c = await handle.pool.acquire();
        return await fn(c);
      } catch (e) {
        if (!isFatal(e)) throw e;
        this.reopen(generation, e);
        if (!rerunRefused || !wasRefused(e) || attempt >= 3) throw e;
      } finally {
        if (c) handle.pool.release(c);
      }
    }
  }

  /**
   * Replaces an invalidated instance (once per instance, however many statements failed on it): the old
   * pool is retired and drained first, and the old instance closed before the file is opened again, since
   * one process must not hold the database file open twice. Committed work is in the file and its WAL,
   * which opening replays.
   */
  private reopen(generation: number, cause: unknown) {
    if (generation !== this.generation || this.reopening) return;
    log.error('database invalidated by a fatal DuckDB error; reopening it', { error: String((cause as Error)?.message ?? cause).split('\n')[0] });
    const old = this.handle;
    this.reopening = (async () => {
      await old.pool.retire(10_000);
      old.pool.close();
      try {
        old.instance.closeSync();
      } catch {
        // An invalidated instance may refuse to close cleanly; its file lock goes with it either way.
      }
      for (let attempt = 1; ; attempt++) {
        try {
          this.handle = await openInstance(this.dataDir, this.poolSize, this.memoryLimit);
          break;
        } catch (e) {
          if (attempt >= 10) throw e;
          log.error('reopening the database failed; retrying', { attempt, error: String((e as Error)?.message ?? e) });
          await new Promise((r) => setTimeout(r, 200 * attempt));
        }
      }
      this.generation++;
      log.info('database reopened', { generation: this.generation });
    })()
      .catch((e) => log.error('the database could not be reopened', { error: String((e as Error)?.message ?? e) }))
      .finally(() => {
        this.reopening = undefined;
      });
  }

  /**
   * A pooled connection held until `release`, for a query's snapshot (storage/snapshot.ts), which may wait on
   * other statements while it holds it (the metadata store is this database): at most all connections but one
   * are held so, so those statements always find one. `failed` reopens the instance when the error invalidated it.
   */
  async lease(): Promise<Lease> {
    while (this.leased >= Math.max(1, this.poolSize - 1)) await new Promise<void>((r) => this.leaseWaiters.push(r));
    this.leased++;
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      this.leased--;
      this.leaseWaiters.shift()?.();
    };
    for (let attempt = 1; ; attempt++) {
      await this.reopening;
      const { generation, handle } = this;
      try {
        return this.leaseOf(handle, generation, await handle.pool.acquire(), free);
      } catch (e) {
        // A pool retired while this waited for it: the reopened instance serves instead.
        if (!wasRefused(e) || attempt >= 3) {
          free();
          throw e;
        }
      }
    }
  }

  /** An idle connection now, held only for a statement or two (not counted against lease's limit), or undefined. */
  tryLease(): Lease | undefined {
    if (this.reopening) return undefined;
    const c = this.handle.pool.tryAcquire();
    return c && this.leaseOf(this.handle, this.generation, c, () => {});
  }

  private leaseOf(handle: Handle, generation: number, c: DuckDBConnection, free: () => void): Lease {
    let released = false;
    return {
      c,
      release: () => {
        if (released) return;
        released = true;
        handle.pool.release(c);
        free();
      },
      failed: (e) => {
        if (isFatal(e)) this.reopen(generation, e);
      },
    };
  }

  /** Test hook (TERN_TEST_HOOKS): the next commit fails FATAL and invalidates the instance for real. */
  async armCheckpointFault(): Promise<void> {
    for (const statement of ARM_CHECKPOINT_FAULT) await this.exec(statement);
  }

  /**
   * Run fn on one connection inside BEGIN/COMMIT; rolled back if fn throws. `publish` (the in-memory manifest's
   * change) runs right after the COMMIT, both through the gate (storage/publish-gate.ts): no query pins a
   * snapshot between the two, and a read that ran across them is answered again (storage/snapshot.ts).
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, publish?: (out: T) => void): Promise<T> {
    return this.withConnection(async (c) => {
      await c.run('BEGIN TRANSACTION');
      try {
        const out = await fn(new Tx(c, this.reuse));
        if (!publish) await c.run('COMMIT');
        else {
          await this.gate.publish(async () => {
            await c.run('COMMIT');
            publish(out);
          });
        }
        return out;
      } catch (e) {
        await c.run('ROLLBACK').catch(() => {});
        throw e;
      }
    }, false);
  }

  async close(): Promise<void> {
    await this.reopening;
    await this.handle.pool.retire(10_000);
    this.handle.pool.close();
    this.handle.instance.closeSync();
  }
}

/**
 * Statements without parameters skip the prepared-statement path: preparing parses the SQL and destroying the
 * statement is synchronous, both on the JS thread (a load's ~30 statements cost the event route ~3% of its
 * main-thread time that way).
 */
export class Tx {
  constructor(private c: DuckDBConnection, private reuse = false) {}
  async query<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    return rowsOf<T>(params.length ? await this.prepared(sql, params) : await this.c.run(sql));
  }
  async exec(sql: string, params: Param[] = []): Promise<void> {
    if (params.length) await this.prepared(sql, params);
    else await this.c.run(sql);
  }

  /**
   * The statement prepared, bound and run. The library's own path first splits the text into statements (one
   * more round trip through the worker pool, and the SQL parsed twice): a single statement is prepared at once,
   * and only text DuckDB refuses to prepare as one (several statements) takes the library's path.
   */
  private async prepared(sql: string, params: Param[]): Promise<DuckDBMaterializedResult> {
    const run = (p: DuckDBPreparedStatement) => {
      p.bind(bindable(params), typesOf(params));
      return p.run();
    };
    try {
      if (this.reuse) return await withPrepared(this.c, sql, run);
      const p = await this.c.prepare(sql);
      try {
        return await run(p);
      } finally {
        p.destroySync();
      }
    } catch (e) {
      if (!MULTIPLE.test(String((e as Error)?.message))) throw e;
      return this.c.run(sql, bindable(params), typesOf(params));
    }
  }
}

/** DuckDB's refusal to prepare text of several statements as one. */
const MULTIPLE = /multiple statements/i;

/**
 * A materialized result's rows, read from its chunks where they are: the library's reader fetches each chunk
 * (and then an empty one) through the worker pool, two round trips for the few rows a report returns.
 */
function rowsOf<T extends Row>(result: DuckDBMaterializedResult): T[] {
  const names = result.deduplicatedColumnNames();
  const out: T[] = [];
  for (let i = 0; i < result.chunkCount; i++) {
    const chunk = result.getChunk(i);
    for (let r = 0; r < chunk.rowCount; r++) {
      // Each value made plain as it is read: one object per row, not a second one copied from the first.
      const row: Record<string, unknown> = {};
      chunk.visitRowValues(r, (v, _, col, type) => { row[names[col]!] = toPlain(JSDuckDBValueConverter(v, type, JSDuckDBValueConverter)); });
      out.push(row as T);
    }
  }
  return out;
}
