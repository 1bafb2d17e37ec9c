// Bytes per stored event at rest: the Parquet files (events, visits) and the DuckDB file of a data directory
// that no server holds, with the DuckDB file's used and free blocks (a file does not shrink when blocks are freed).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export type StoreSize = {
  events: number; parquetEvents: number; parquetVisits: number; duckdbFile: number; duckdbWal: number;
  duckdbUsed: number; duckdbFree: number; perEvent: number;
  /** The DuckDB tables with the most rows, for the why. */
  tables: { name: string; rows: number }[];
};

const dirBytes = (dir: string): number => !existsSync(dir) ? 0 : readdirSync(dir, { withFileTypes: true })
  .reduce((s, d) => s + (d.isDirectory() ? dirBytes(join(dir, d.name)) : statSync(join(dir, d.name)).size), 0);

/** `dir` must not be open in a server (DuckDB's lock); it is attached read-only. */
export async function storeSize(dir: string, events: number): Promise<StoreSize> {
  const db = join(dir, 'tern.duckdb');
  const wal = `${db}.wal`;
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  try {
    await c.run(`ATTACH '${db.replaceAll("'", "''")}' AS store (READ_ONLY)`);
    const [size] = (await c.runAndReadAll(`SELECT block_size, used_blocks, free_blocks FROM pragma_database_size() WHERE database_name = 'store'`)).getRowObjectsJS() as any[];
    const tables = (await c.runAndReadAll(`SELECT table_name AS name, estimated_size AS rows FROM duckdb_tables() WHERE database_name = 'store' ORDER BY estimated_size DESC LIMIT 5`)).getRowObjectsJS()
      .map((r: any) => ({ name: String(r.name), rows: Number(r.rows) }));
    const out = {
      events,
      parquetEvents: dirBytes(join(dir, 'parquet', 'events')),
      parquetVisits: dirBytes(join(dir, 'parquet', 'visits')),
      duckdbFile: statSync(db).size,
      duckdbWal: existsSync(wal) ? statSync(wal).size : 0,
      duckdbUsed: Number(size.block_size) * Number(size.used_blocks),
      duckdbFree: Number(size.block_size) * Number(size.free_blocks),
      tables,
    };
    return { ...out, perEvent: (out.parquetEvents + out.parquetVisits + out.duckdbFile + out.duckdbWal) / events };
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}

const perEvent = (bytes: number, events: number) => (bytes / events).toFixed(1);

/** One line saying where the bytes are. */
export const describeSize = (s: StoreSize) =>
  `${perEvent(s.parquetEvents + s.parquetVisits + s.duckdbFile + s.duckdbWal, s.events)} B/event: Parquet events ${perEvent(s.parquetEvents, s.events)}, visits ${perEvent(s.parquetVisits, s.events)}; ` +
  `DuckDB file ${perEvent(s.duckdbFile, s.events)} (blocks used ${perEvent(s.duckdbUsed, s.events)}, free ${perEvent(s.duckdbFree, s.events)}), WAL ${perEvent(s.duckdbWal, s.events)}; ` +
  `largest tables by rows: ${s.tables.map((t) => `${t.name} ${t.rows.toLocaleString('en')}`).join(', ')}`;
