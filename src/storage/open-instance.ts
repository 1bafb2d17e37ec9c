// Opens the DuckDB instance of a DATA_DIR with this server's settings, and its pool of connections.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from './connection-pool.ts';

export class DataDirLockedError extends Error {}

/**
 * Test hook (TERN_TEST_HOOKS): arms DuckDB's own checkpoint-abort fault and makes the next commit
 * checkpoint, so that the commit fails FATAL and the instance is invalidated for real, as after the internal
 * error of issue 17. Reopening the instance clears both settings.
 */
export const ARM_CHECKPOINT_FAULT = [`SET GLOBAL debug_checkpoint_abort = 'before_header'`, `SET GLOBAL checkpoint_threshold = '1B'`];

/**
 * WAL size that makes a commit checkpoint. Ingestion commits a batch every second: checkpointing at 64 MB of WAL
 * instead of 16 MB rewrote the visits and visitors row groups a quarter as often (about 15% less CPU per event).
 * A migration's hot events (storage/hot-events.ts) take ~25 MB of WAL per 50,000-event request: at 64 MB every
 * third request checkpointed them (1.5–4 s each, growing with the store), only for compaction to delete them
 * once a million wait. At 1 GB they mostly leave the table before any checkpoint writes them (bench/import.ts,
 * 500k events: commits 10.2 → 4.1 s in all, 42 → 37 ms server CPU per 1,000 events). A restart replays up
 * to this much WAL.
 */
const CHECKPOINT_THRESHOLD = '1GB';

export async function openInstance(dataDir: string, poolSize: number, memoryLimit: string): Promise<{ instance: DuckDBInstance; pool: Pool }> {
  mkdirSync(dataDir, { recursive: true });
  let instance: DuckDBInstance;
  try {
    // Without a limit DuckDB may cache up to 80% of RAM. 2 GB holds a 12-month breakdown of 10M events
    // (distinct visitors per page over hot rows + Parquet needs ~1 GB); 256 MB keeps RSS flat for
    // ingest-only use but such queries then answer 503. Bigger work spills to DATA_DIR/tern.duckdb.tmp.
    instance = await DuckDBInstance.create(join(dataDir, 'tern.duckdb'), { memory_limit: memoryLimit, checkpoint_threshold: CHECKPOINT_THRESHOLD });
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
  return { instance, pool: new Pool(conns) };
}
