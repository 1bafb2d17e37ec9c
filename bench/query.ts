// Query benchmark (not a test): 10M generated events for one site over 12 months, loaded through the import
// code, then every analytics endpoint timed over HTTP against the same question as one hand-written DuckDB
// statement on the same files. Prints p50 per endpoint and the ratio.
// Usage: bun bench/query.ts [--events 10000000] [--runs 5] [--memory 2GB] [--fresh]
// --memory is DuckDB's memory_limit for the server (DUCKDB_MEMORY_LIMIT) and the hand-written side alike.
// The loaded data dir (bench/out/query-data for 10M events) is kept and reused; --fresh rebuilds it.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../test/helpers/server.ts';
import { Database } from '../src/storage/database.ts';
import { tableSource } from '../src/storage/sources.ts';
import { ParquetManifest, type ParquetFile } from '../src/storage/parquet-layout.ts';
import { dayRange, realtimeRange, type Range } from '../src/query/period.ts';
import { addDays, addMonths, monthEnd, monthStart, todayIn } from '../src/query/calendar.ts';
import { HAND_WRITTEN } from './query-sql.ts';
import { compactQueryData, prepareQueryData, QUERY_DATA_TZ, queryDataDir, type Meta } from './query-data.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' }, fresh: { type: 'boolean', default: false },
    memory: { type: 'string', default: '2GB' },
  },
});
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
// Other benches read the 10M-event directory; other sizes get their own so it is never rebuilt by accident.
const DATA_DIR = queryDataDir(EVENTS);
const TZ = QUERY_DATA_TZ;
/** The three scenarios of the brief: 12 months, 30 days, a custom 90-day range with one filter. */
function scenarios(): { name: string; query: string; range: Range; filter?: { column: string; value: string } }[] {
  const today = todayIn(TZ);
  const from90 = addDays(today, -120);
  return [
    { name: '12mo', query: 'period=12mo', range: dayRange('12mo', addMonths(monthStart(today), -11), monthEnd(today), TZ) },
    { name: '30d', query: 'period=30d', range: dayRange('30d', addDays(today, -29), today, TZ) },
    {
      name: '90d+filter',
      query: `period=custom&from=${from90}&to=${addDays(from90, 89)}&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'country', operator: 'is', value: 'US' }]))}`,
      range: dayRange('custom', from90, addDays(from90, 89), TZ),
      filter: { column: 'country', value: 'US' },
    },
  ];
}

const ENDPOINTS = ['stats', 'charts', 'pages', 'sources', 'channels', 'devices', 'locations', 'revenue', 'realtime'] as const;

/** NaN (a failed run) sorts last, so a p50 is NaN only when at least half the runs failed. */
const p50 = (xs: number[]) => [...xs].sort((a, b) => (isNaN(a) ? 1 : isNaN(b) ? -1 : a - b))[Math.floor(xs.length / 2)]!;

/**
 * The hand-written side reads a copy of the database file (the server holds the original's lock) and the
 * same Parquet files, listed from parquet_files without the manifest's orphan sweep.
 */
async function openCopy() {
  const dir = join(import.meta.dir, 'out', 'query-sql-copy');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(DATA_DIR, 'tern.duckdb'), join(dir, 'tern.duckdb'));
  const db = await Database.open(dir, 1, args.memory);
  const manifest = new ParquetManifest(DATA_DIR);
  for (const f of await db.query<ParquetFile>(`SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files`)) manifest.add(f);
  return { db, manifest, cleanup: async () => { await db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

/** HTTP request and hand-written statement alternate run by run, so both see the same machine load. */
async function timeBoth(meta: Meta) {
  const srv = await startServer({ dataDir: DATA_DIR, env: { DUCKDB_MEMORY_LIMIT: args.memory! } });
  const copy = await openCopy();
  const out = new Map<string, { http: number; sql: number }>();
  try {
    const base = `${srv.url}/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}/analytics`;
    for (const s of scenarios()) {
      for (const e of ENDPOINTS) {
        const url = `${base}/${e}?${s.query}`;
        const range = e === 'realtime' ? realtimeRange(TZ) : s.range;
        const stmt = HAND_WRITTEN[e]!({
          siteId: meta.siteId, files: copy.manifest, tz: TZ, range, filter: e === 'realtime' ? undefined : s.filter,
          events: tableSource(copy.manifest, 'events', meta.siteId, range), visits: tableSource(copy.manifest, 'visits', meta.siteId, range),
        });
        const http: number[] = [];
        const hand: number[] = [];
        for (let i = 0; i <= RUNS; i++) {
          let t0 = performance.now();
          const r = await fetch(url, { headers: { authorization: `Bearer ${meta.token}` } });
          const body = await r.text();
          if (i > 0) http.push(r.status === 200 ? performance.now() - t0 : NaN);
          if (r.status !== 200) console.log(`${e} ${s.name}: HTTP ${r.status} ${body}`);
          t0 = performance.now();
          const ok = await copy.db.query(stmt.sql, stmt.params).then(() => true, (err) => (console.log(`${e} ${s.name}: SQL ${err.message.split('\n')[0]}`), false));
          if (i > 0) hand.push(ok ? performance.now() - t0 : NaN);
        }
        out.set(`${e} ${s.name}`, { http: p50(http), sql: p50(hand) });
        console.log(`${e} ${s.name}: HTTP ${p50(http).toFixed(0)} ms, SQL ${p50(hand).toFixed(0)} ms`);
      }
    }
  } finally {
    await copy.cleanup();
    await srv.stop();
  }
  return out;
}

const meta = await prepareQueryData(EVENTS, args.fresh!);
await compactQueryData(DATA_DIR);
const times = await timeBoth(meta);
console.log(`\n${EVENTS.toLocaleString('en')} events, DuckDB memory_limit ${args.memory}, p50 of ${RUNS} runs (ms), load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log('| endpoint | scenario | HTTP p50 | hand-written SQL p50 | ratio |');
console.log('|---|---|---:|---:|---:|');
for (const [k, t] of times) {
  const [e, s] = k.split(' ');
  console.log(`| ${e} | ${s} | ${t.http.toFixed(0)} | ${t.sql.toFixed(0)} | ${(t.http / t.sql).toFixed(2)} |`);
}
