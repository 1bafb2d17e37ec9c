// A bigger bench store made from a smaller one: `factor` copies of every visitor, each copy under its own
// visitor and visit IDs (XOR with a per-copy mask), order IDs and profile IDs, in the same site and months.
// Building 100M events through the import path takes hours on 2 cores; this takes minutes and gives the same
// shape (pages, sources, devices, time of day) with `factor` times the visitors, visits and events.
// Marks stay exact: a visitor's previous event or visit is in the same copy, at the same time.
// Usage: bun bench/multiply-store.ts --from bench/out/query-data --factor 10 [--to bench/out/query-data-100000000]
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from '../src/storage/database.ts';
import { ParquetManifest, sqlPath, type ParquetFile, type Table } from '../src/storage/parquet-layout.ts';
import { unregister, writePartition, writingFiles } from '../src/storage/parquet-writer.ts';
import { hash53 } from '../src/ingest/hash.ts';
import { readStoreMeta, type StoreMeta } from './query-store.ts';

/** Copy 0 keeps its IDs; copy k > 0 XORs visitor and visit IDs with this 53-bit mask (IDs stay 53-bit). */
const mask = (k: number) => (k === 0 ? 0 : hash53(`bench copy ${k}`));
/** compaction.ts's SMALL_FILE_ROWS: files this large are not merged again. */
const MERGED_ROWS = 500_000;
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

/** Copy k of a stored row of `tbl`, as a SELECT over the file `abs` (not its path: site= and month= are no columns of the files). */
function copyOf(tbl: Table, abs: string, k: number): string {
  const ids = `xor(visitor_id, ${mask(k)}::BIGINT) AS visitor_id, xor(visit_id, ${mask(k)}::BIGINT) AS visit_id`;
  const order = tbl === 'events' ? `, CASE WHEN ${k} = 0 THEN order_id ELSE order_id || '-c${k}' END AS order_id` : '';
  return `SELECT * REPLACE (${ids}${order}) FROM read_parquet(${sqlPath(abs)}, hive_partitioning = false)`;
}

export async function multiplyStore(from: string, factor: number, to: string, memory = '4GB'): Promise<StoreMeta> {
  const meta = readStoreMeta(from);
  if (!meta) throw new Error(`${from} holds no finished bench store (bench.json)`);
  const t0 = performance.now();
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  cpSync(join(from, 'tern.duckdb'), join(to, 'tern.duckdb'));
  const db = await Database.open(to, 1, memory);
  try {
    const manifest = new ParquetManifest(to);
    const files = await db.query<ParquetFile>(`SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files ORDER BY tbl, month`);
    if (await db.one(`SELECT 1 FROM events UNION ALL SELECT 1 FROM visits LIMIT 1`)) throw new Error(`${from} has hot rows: compact it first`);
    // Files of at least 500k rows, as the compactor leaves them (it stops merging there): a source file of that
    // size gives one file per copy, streamed without a sort (the source is sorted by time; sorting ten copies of a
    // month together ran out of a 6 GB memory limit); a smaller one gives files of as many copies as reach it,
    // sorted by time.
    for (const f of files) {
      const t1 = performance.now();
      const src = join(from, f.path);
      const per = Math.min(factor, Math.ceil(MERGED_ROWS / f.rows));
      await writingFiles(db, manifest, async (tx, written) => {
        await unregister(tx, [f.path]);
        for (let k = 0; k < factor; k += per) {
          const copies = Array.from({ length: Math.min(per, factor - k) }, (_, i) => copyOf(f.tbl, src, k + i));
          await writePartition(tx, manifest, written, f.tbl, f.site_id, f.month, copies.join(' UNION ALL '),
            { rows: f.rows * copies.length, min_ts: f.min_ts, max_ts: f.max_ts }, { presorted: copies.length === 1 });
        }
      });
      console.log(`  ${f.tbl} ${f.month}: ${factor} × ${f.rows.toLocaleString('en')} rows, ${per} per file, in ${secs(t1)}`);
    }
    // The tables keyed by visitor: one row per copy, each copy made from the originals.
    await db.transaction(async (tx) => {
      for (const t of ['visitor_history', 'visitors', 'purchases', 'prop_values']) await tx.exec(`CREATE TEMP TABLE orig_${t} AS SELECT * FROM ${t}`);
      for (let k = 1; k < factor; k++) {
        const m = `${mask(k)}::BIGINT`;
        await tx.exec(`INSERT INTO visitor_history SELECT * REPLACE (xor(visitor_id, ${m}) AS visitor_id, xor(visit_id, ${m}) AS visit_id) FROM orig_visitor_history`);
        await tx.exec(`INSERT INTO visitors SELECT * REPLACE (uuid() AS id, xor(visitor_id, ${m}) AS visitor_id, uid || '-c${k}' AS uid) FROM orig_visitors`);
        await tx.exec(`INSERT INTO purchases SELECT * REPLACE (xor(visitor_id, ${m}) AS visitor_id, xor(visit_id, ${m}) AS visit_id, order_id || '-c${k}' AS order_id) FROM orig_purchases`);
        await tx.exec(`INSERT INTO prop_values SELECT * REPLACE (xor(visitor_id, ${m}) AS visitor_id) FROM orig_prop_values`);
      }
      await tx.exec(`UPDATE event_counts SET pageviews = pageviews * ${factor}, events = events * ${factor}`);
      await tx.exec(`UPDATE prop_key_counts SET events = events * ${factor}`);
    });
  } finally {
    await db.close();
  }
  const out = { ...meta, events: meta.events * factor };
  writeFileSync(join(to, 'bench.json'), JSON.stringify(out));
  console.log(`${meta.events.toLocaleString('en')} × ${factor} events in ${to} (${secs(t0)})`);
  return out;
}

if (import.meta.main) {
  const { values: a } = parseArgs({ options: { from: { type: 'string' }, factor: { type: 'string', default: '10' }, to: { type: 'string' }, memory: { type: 'string', default: '4GB' } } });
  const from = a.from ?? join(import.meta.dir, 'out', 'query-data');
  const factor = Number(a.factor);
  const events = (JSON.parse(readFileSync(join(from, 'bench.json'), 'utf8')) as StoreMeta).events * factor;
  const to = a.to ?? join(import.meta.dir, 'out', `query-data-${events}`);
  if (existsSync(join(to, 'bench.json')) && readStoreMeta(to)?.events === events) console.log(`${to} already holds ${events} events`);
  else await multiplyStore(from, factor, to, a.memory);
}
