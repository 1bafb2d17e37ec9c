// Hot-event flush benchmark (not a test): a million events of the bench store, inserted into the hot events table
// of a fresh DATA_DIR in arrival order (visitor by visitor, as an import leaves them, not checkpointed), written to
// Parquet by the flush as it was (bench/hot-flush-before.ts: every month's file picked from the whole table) and
// as it is (src/storage/hot-events.ts: slices of consecutive months sorted at once), alternating; prints wall
// time and process CPU (DuckDB's threads included) of each run.
// Usage: bun bench/hot-flush.ts [--rows 1000000] [--runs 2] [--memory 1GB]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from '../src/storage/database.ts';
import { migrate } from '../src/storage/migrate.ts';
import { ParquetManifest } from '../src/storage/parquet-layout.ts';
import { writingFiles } from '../src/storage/parquet-writer.ts';
import { flushHotEvents } from '../src/storage/hot-events.ts';
import { flushHotEvents as flushBefore } from './hot-flush-before.ts';
import { STORED_EVENT_COLUMNS } from '../src/storage/marks.ts';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '2' }, memory: { type: 'string', default: '1GB' } } });
const STORE = join(import.meta.dir, 'out', 'query-data', 'parquet', 'events');
const DIR = join(import.meta.dir, 'out', 'hot-flush-data');
rmSync(DIR, { recursive: true, force: true });
const db = await Database.open(DIR, 4, args.memory!);
await migrate(db);
const manifest = new ParquetManifest(DIR);
const site = (await db.query<{ id: string }>(`SELECT gen_random_uuid()::VARCHAR AS id`))[0]!.id;
await db.exec(`CREATE TABLE src AS SELECT * REPLACE ('${site}' AS site_id) FROM (SELECT ${STORED_EVENT_COLUMNS} FROM read_parquet('${STORE}/*/*/*.parquet', hive_partitioning = false)
  USING SAMPLE 12 PERCENT (system) LIMIT ${Number(args.rows)}) ORDER BY visitor_id, ts`);
await db.exec('CHECKPOINT');
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
console.log(`hot flush: ${Number(args.rows).toLocaleString('en')} events, DUCKDB_MEMORY_LIMIT ${args.memory}`);
console.log('run | wall s | CPU s | files');
for (let i = 0; i < Number(args.runs); i++) {
  for (const [name, flush] of [['before', flushBefore], ['now', flushHotEvents]] as const) {
    await db.exec(`INSERT INTO events BY NAME SELECT * FROM src`);
    const t0 = performance.now();
    const c0 = cpu();
    const files = await writingFiles(db, manifest, async (tx, written) => { await flush(tx, manifest, written); return written.length; });
    console.log(`${name.padEnd(6)} | ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} | ${(cpu() - c0).toFixed(1).padStart(5)} | ${files}`);
  }
}
await db.close();
rmSync(DIR, { recursive: true, force: true });
