// Erasure benchmark (not a test): a copy of the query benchmarks' store (N events over 12 months,
// bench/query-store.ts), then one visitor erased over HTTP, for a few visitors in turn, beside a scan of the
// same files rewritten without the visitor by hand in DuckDB (the baseline: what the rewrite costs the engine).
// Prints the time of each erasure, the rows and files it rewrote, and the ratio to the baseline.
// Usage: bun bench/erase.ts [--events 10000000] [--visitors 3] [--fresh] [--row-group N]
// --row-group: the copy's Parquet files are first rewritten with N rows per row group (bench/regroup.ts), to
// compare stored row-group sizes (run once with each).
import { cpSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../test/helpers/server.ts';
import { client } from '../test/helpers/api.ts';
import { Database } from '../src/storage/database.ts';
import { ParquetManifest } from '../src/storage/parquet-layout.ts';
import { compactStore, prepareStore, storeDir } from './query-store.ts';
import { cpuSeconds } from './proc-stats.ts';
import { regroupStore } from './regroup.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '10000000' }, visitors: { type: 'string', default: '3' }, fresh: { type: 'boolean', default: false },
  'row-group': { type: 'string' } } });
const EVENTS = Number(args.events);
const SOURCE = storeDir(EVENTS);
// Erasure rewrites files: it runs on a copy, so the query benchmarks' store stays as built.
const DATA_DIR = join(SOURCE, '..', `erase-data-${EVENTS}`);

const meta = await prepareStore(EVENTS, args.fresh);
await compactStore(EVENTS);
rmSync(DATA_DIR, { recursive: true, force: true });
cpSync(SOURCE, DATA_DIR, { recursive: true });
if (args['row-group']) await regroupStore(DATA_DIR, Number(args['row-group']));

// The visitors to erase: the most active one (in every month's files: the worst case) and two of median
// activity; found, and their files rewritten by hand, before the server takes the lock.
const db = await Database.open(DATA_DIR, 1, '2GB');
const manifest = new ParquetManifest(DATA_DIR);
await manifest.load(db);
const all = { events: manifest.files('events', meta.siteId), visits: manifest.files('visits', meta.siteId) };
const ranked = await db.query<{ id: string; vid: number; n: number }>(
  `SELECT md5(site_id || ':' || visitor_id)::UUID::VARCHAR AS id, visitor_id AS vid, count(*) AS n FROM read_parquet(?::VARCHAR[], hive_partitioning = false)
   GROUP BY ALL ORDER BY n DESC, vid`, [all.events]);
const targets = [ranked[0]!, ranked[Math.floor(ranked.length / 2)]!, ranked[Math.floor(ranked.length / 2) + 1]!].slice(0, Number(args.visitors));
/** The baseline: each file holding the visitor copied without its rows, by hand (what a rewrite costs DuckDB alone). */
async function byHand(vid: number) {
  const out = join(DATA_DIR, '..', 'erase-by-hand.parquet');
  let files = 0;
  const t0 = performance.now();
  const cpu0 = cpuSeconds(process.pid);
  for (const tbl of ['events', 'visits'] as const) {
    const hit = await db.query<{ f: string }>(`SELECT DISTINCT filename AS f FROM read_parquet(?::VARCHAR[], filename = true, hive_partitioning = false) WHERE visitor_id = ?::BIGINT`, [all[tbl], vid]);
    for (const { f } of hit) {
      await db.exec(`COPY (SELECT * FROM read_parquet('${f}', hive_partitioning = false) WHERE visitor_id <> ${vid}) TO '${out}' (FORMAT parquet, COMPRESSION lz4)`);
      files++;
    }
  }
  rmSync(out, { force: true });
  return { s: (performance.now() - t0) / 1000, files, cpu: cpuSeconds(process.pid) - cpu0 };
}
const baseline = new Map<string, { s: number; files: number; cpu: number }>();
for (const t of targets) baseline.set(t.id, await byHand(t.vid));
await db.close();

const srv = await startServer({ dataDir: DATA_DIR });
const api = client(srv.url);
const lines: string[] = [];
try {
  for (const t of targets) {
    const t0 = performance.now();
    const cpu0 = cpuSeconds(srv.proc.pid);
    const r = await api.del(`/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}/visitors/${t.id}`, meta.token);
    const s = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(srv.proc.pid) - cpu0;
    if (r.status !== 200) throw new Error(`erase failed: ${r.status} ${r.text}`);
    // The server's own account of the rewrite: row groups re-encoded and copied as they were.
    const said = JSON.parse(srv.logs().split('\n').filter((l) => l.includes('"visitor erased"')).at(-1) ?? '{}');
    const b = baseline.get(t.id)!;
    const line = `| ${t.id.slice(0, 8)}… | ${r.body.data.events_deleted} | ${r.body.data.visits_deleted} | ${b.files} | ${s.toFixed(2)} s | ${b.s.toFixed(2)} s | ${(s / b.s).toFixed(2)} | ${cpu.toFixed(2)} / ${b.cpu.toFixed(2)} s | ${said.rowGroupsRewritten ?? '?'} / ${said.rowGroupsCopied ?? '?'} | ${said.findMs ?? '?'} / ${said.writeMs ?? '?'} / ${said.commitMs ?? '?'} ms |`;
    console.log(line);
    lines.push(line);
  }
} finally {
  await srv.stop();
}
// Read back: every Parquet file on disk (the stop deleted the replaced ones) holds none of the erased visitors,
// and every other event is still there.
const check = await Database.open(DATA_DIR, 1, '2GB');
const onDisk = `read_parquet('${join(DATA_DIR, 'parquet', 'events')}/**/*.parquet', hive_partitioning = false)`;
const [after] = await check.query<{ n: number; erased: number }>(
  `SELECT count(*) AS n, count(*) FILTER (WHERE visitor_id IN (SELECT unnest(?::VARCHAR[])::BIGINT)) AS erased FROM ${onDisk}`, [targets.map((t) => String(t.vid))]);
await check.close();
rmSync(DATA_DIR, { recursive: true, force: true });
const erasedEvents = targets.reduce((n, t) => n + t.n, 0);
console.log(`read back: ${after!.erased} rows of the erased visitors on disk; ${after!.n} events = ${EVENTS} - ${erasedEvents}: ${after!.n === EVENTS - erasedEvents && after!.erased === 0 ? 'ok' : 'MISMATCH'}`);
console.log(`\n${EVENTS.toLocaleString('en')} events in ${all.events.length} events files${args['row-group'] ? `, rewritten in row groups of ${args['row-group']} rows` : ''}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
// CPU seconds (the server during the DELETE / this process during the rewrites by hand): what other load does not skew.
console.log('| visitor | events erased | visits erased | files rewritten | DELETE over HTTP | same rewrites by hand | ratio | CPU: server / by hand | row groups rewritten / copied | find / write / commit in the server log |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const l of lines) console.log(l);
