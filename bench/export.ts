// Export benchmark (not a test): the query benchmarks' store (N events over 12 months, bench/query-store.ts),
// the whole year exported over HTTP in each format, beside the same COPY run by hand in DuckDB on the same
// files (the baseline: what the engine alone takes). Prints rows/s, MB/s, the ratio to the baseline and the
// server's peak RSS during each download (sampled from /proc every 20 ms).
// Usage: bun bench/export.ts [--events 10000000] [--fresh]
import { readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../test/helpers/server.ts';
import { Database } from '../src/storage/database.ts';
import { ParquetManifest } from '../src/storage/parquet-layout.ts';
import { EXPORT_COLUMNS, selectItem, type ExportFormat } from '../src/exports/columns.ts';
import { CSV_COPY_OPTIONS } from '../src/http/csv.ts';
import { compactStore, prepareStore, storeDir } from './query-store.ts';
import { cpuSeconds } from './proc-stats.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '10000000' }, fresh: { type: 'boolean', default: false } } });
const EVENTS = Number(args.events);
const DATA_DIR = storeDir(EVENTS);
const FORMATS: ExportFormat[] = ['parquet', 'csv', 'ndjson'];
const OPTIONS: Record<ExportFormat, string> = { parquet: 'FORMAT parquet, COMPRESSION snappy', csv: CSV_COPY_OPTIONS, ndjson: 'FORMAT json' };

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** Downloads the export, discarding it; returns bytes, seconds and the server's peak RSS meanwhile. */
async function viaHttp(url: string, token: string, pid: number) {
  let peak = rssKb(pid);
  const cpu0 = cpuSeconds(pid);
  const sampler = setInterval(() => { peak = Math.max(peak, rssKb(pid)); }, 20);
  const t0 = performance.now();
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (r.status !== 200) throw new Error(`export failed: ${r.status} ${await r.text()}`);
  let bytes = 0;
  for await (const chunk of r.body as any as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const s = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  return { bytes, s, peakMb: Math.max(peak, rssKb(pid)) / 1024, cpu: cpuSeconds(pid) - cpu0 };
}

/** The same SELECT and COPY in a DuckDB of our own over the registered files (the server is stopped). */
async function byHand(format: ExportFormat, siteId: string) {
  const db = await Database.open(join(DATA_DIR, '..', 'export-bench-copy'), 1, '2GB');
  const src = await Database.open(DATA_DIR, 1, '2GB');
  const manifest = new ParquetManifest(DATA_DIR);
  await manifest.load(src);
  await src.close();
  const files = manifest.files('events', siteId);
  const out = join(DATA_DIR, '..', `export-bench.${format}`);
  const select = `SELECT ${EXPORT_COLUMNS.events.map((c) => selectItem(c, format)).join(', ')} FROM read_parquet([${files.map((f) => `'${f}'`).join(', ')}], hive_partitioning = false)`;
  const t0 = performance.now();
  const cpu0 = cpuSeconds(process.pid);
  await db.exec(`COPY (${select}) TO '${out}' (${OPTIONS[format]})`);
  const s = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(process.pid) - cpu0;
  const bytes = statSync(out).size;
  rmSync(out, { force: true });
  await db.close();
  rmSync(join(DATA_DIR, '..', 'export-bench-copy'), { recursive: true, force: true });
  return { s, bytes, cpu };
}

const meta = await prepareStore(EVENTS, args.fresh);
await compactStore(EVENTS);
const rows: string[] = [];
for (const format of FORMATS) {
  const srv = await startServer({ dataDir: DATA_DIR });
  let http;
  try {
    http = await viaHttp(`${srv.url}/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}/export?table=events&format=${format}`, meta.token, srv.proc.pid);
  } finally {
    await srv.stop();
  }
  const hand = await byHand(format, meta.siteId);
  const line = `| ${format} | ${(EVENTS / http.s / 1e6).toFixed(2)} M rows/s | ${(http.bytes / 1e6 / http.s).toFixed(0)} MB/s | ${(http.bytes / 1e6).toFixed(0)} MB | ${http.s.toFixed(2)} s | ${hand.s.toFixed(2)} s | ${(http.s / hand.s).toFixed(2)} | ${http.cpu.toFixed(2)} / ${hand.cpu.toFixed(2)} s | ${http.peakMb.toFixed(0)} MB |`;
  console.log(line);
  rows.push(line);
}
console.log(`\n${EVENTS.toLocaleString('en')} events (12 months, one site), load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
// CPU seconds (server during the download / the by-hand process during its COPY): what other load does not skew.
console.log('| format | rows/s | MB/s | size | HTTP download | DuckDB COPY by hand | ratio | CPU: server / by hand | server peak RSS |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
