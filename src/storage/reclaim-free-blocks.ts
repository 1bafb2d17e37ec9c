// Gives the database file's free blocks back to the disk at start: DuckDB reuses blocks freed by deletes but
// never shrinks its file, so churn (imports passing visits through the hot tables, compaction's deletes) leaves
// it at its high-water mark. When most of it is free, the file is copied into a new one and swapped in.
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { syncDir, syncFile } from './durable-file.ts';
import { log } from '../log.ts';

/** Worth a copy only when at least this share of the file is free… */
const MIN_FREE_SHARE = 0.4;
/** …and at least this many bytes: a copy costs ~25 ms per MB of live data on one core (10M events: 200 MB, ~10 s). */
const MIN_FREE_BYTES = 64 * 1024 * 1024;

export type Reclaimed = { beforeBytes: number; afterBytes: number; ms: number };

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Copies DATA_DIR/tern.duckdb into a compact file and renames it over the old one when enough of it is free;
 * null when not worth it (or the file is absent or held by another process, which opening reports). A crash
 * before the rename leaves the old file whole and a stray copy, removed by the next start; the rename is atomic.
 */
export async function reclaimFreeBlocks(dataDir: string, memoryLimit: string): Promise<Reclaimed | null> {
  const file = join(dataDir, 'tern.duckdb');
  const copy = `${file}.compact`;
  rmSync(copy, { force: true });
  rmSync(`${copy}.wal`, { force: true });
  if (!existsSync(file)) return null;
  const t0 = performance.now();
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: memoryLimit });
  const c = await instance.connect();
  try {
    try {
      // Attached writable, so a WAL left by a crash is replayed and checkpointed into the file first.
      await c.run(`ATTACH ${sqlString(file)} AS old`);
    } catch {
      return null;
    }
    const size = (await c.runAndReadAll(`SELECT block_size, total_blocks, free_blocks FROM pragma_database_size() WHERE database_name = 'old'`)).getRowObjectsJS()[0];
    const free = Number(size?.free_blocks ?? 0) * Number(size?.block_size ?? 0);
    const total = Number(size?.total_blocks ?? 0) * Number(size?.block_size ?? 0);
    if (free < MIN_FREE_BYTES || free < MIN_FREE_SHARE * total) return null;
    await c.run('CHECKPOINT old');
    await c.run(`ATTACH ${sqlString(copy)} AS fresh`);
    await c.run('COPY FROM DATABASE old TO fresh');
    await c.run('DETACH fresh');
    await c.run('DETACH old');
  } finally {
    c.closeSync();
    instance.closeSync();
  }
  // The copy's own WAL, if any, was checkpointed by DETACH; a copy that still has one is not swapped in.
  if (existsSync(`${copy}.wal`) || existsSync(`${file}.wal`)) {
    rmSync(copy, { force: true });
    rmSync(`${copy}.wal`, { force: true });
    return null;
  }
  const beforeBytes = statSync(file).size;
  await syncFile(copy);
  renameSync(copy, file);
  await syncDir(dataDir);
  const out = { beforeBytes, afterBytes: statSync(file).size, ms: Math.round(performance.now() - t0) };
  log.info('database file compacted: free blocks returned to the disk', out);
  return out;
}
