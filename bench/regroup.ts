// Rewrites every Parquet file of a data directory in place with `rows` rows per row group: the same rows in the
// same order, the server's writer options (parquet-writer.ts), so the registry and the engagement rollups still
// hold. For benchmarks of the stored row-group size (bench/erase.ts --row-group) on a copy of a store.
// Usage: bun bench/regroup.ts <data dir> <rows per group>
import { readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetOptions } from '../src/storage/parquet-writer.ts';

const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.parquet') ? [join(d, e.name)] : []));

export async function regroupStore(dataDir: string, rows: number) {
  // One thread: rows stay in file order and every group but a file's last holds `rows` rows (DuckDB rounds
  // it up to a multiple of 2,048).
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const c = await inst.connect();
  try {
    for (const tbl of ['events', 'visits'] as const) {
      for (const f of walk(join(dataDir, 'parquet', tbl))) {
        await c.run(`COPY (SELECT * FROM read_parquet('${f}', hive_partitioning = false)) TO '${f}.regroup' (${parquetOptions(tbl, rows)})`);
        renameSync(`${f}.regroup`, f);
      }
    }
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}

if (import.meta.main) {
  const [dir, rows] = process.argv.slice(2);
  if (!dir || !Number(rows)) throw new Error('usage: bun bench/regroup.ts <data dir> <rows per group>');
  await regroupStore(dir, Number(rows));
}
