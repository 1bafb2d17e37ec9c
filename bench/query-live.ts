// The query benchmark as the issue describes its reference runs: 10M generated events sent over HTTP in
// 50,000-line import requests, then every report timed at once, while the server's compaction still works through
// what the imports left (hot events, closed visits), beside the same question as one hand-written DuckDB statement
// on a copy of the store as the imports left it. Prints p50 per endpoint and the ratio.
// Usage: bun bench/query-live.ts [--events 10000000] [--lines 50000] [--runs 5] [--memory 2GB]
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tableSource } from '../src/storage/sources.ts';
import { realtimeRange } from '../src/query/parse/period.ts';
import { Database } from '../src/storage/database.ts';
import { ParquetManifest, type ParquetFile } from '../src/storage/parquet-layout.ts';
import { startServer } from '../test/helpers/server.ts';
import { setupAccount } from '../test/helpers/api.ts';
import { ENDPOINTS, endpointUrl, scenarios } from './query-scenarios.ts';
import { HAND_WRITTEN } from './query-sql.ts';
import { STORE_TZ } from './query-store.ts';
import { importRate } from './import-rate.ts';
import { timeSideBySide } from './side-by-side.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' }, lines: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '5' }, memory: { type: 'string', default: '2GB' },
  },
});
const EVENTS = Number(args.events);
const DIR = join(import.meta.dir, 'out', `query-live-${EVENTS}`);
const COPY = join(import.meta.dir, 'out', `query-live-${EVENTS}-copy`);
const env = { DUCKDB_MEMORY_LIMIT: args.memory! };

rmSync(DIR, { recursive: true, force: true });
rmSync(COPY, { recursive: true, force: true });
let srv = await startServer({ dataDir: DIR, env });
const acct = await setupAccount(srv.url, { timezone: STORE_TZ });
const t0 = performance.now();
const run = await importRate({ url: `${srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import`, token: acct.token, events: EVENTS, lines: Number(args.lines) });
console.log(`imported ${run.stored.toLocaleString('en')} events in ${Math.round(run.seconds)} s (${Math.round(run.rate).toLocaleString('en')} events/s)`);

// The copy is taken with the server stopped (a consistent database file); its Parquet files are hard links, so
// the files compaction replaces once the server runs again stay readable by the hand-written side.
await srv.stop();
mkdirSync(COPY, { recursive: true });
copyFileSync(join(DIR, 'tern.duckdb'), join(COPY, 'tern.duckdb'));
if (existsSync(join(DIR, 'parquet'))) execFileSync('cp', ['-al', join(DIR, 'parquet'), join(COPY, 'parquet')]);
const db = await Database.open(COPY, 1, args.memory!);
const manifest = new ParquetManifest(COPY);
for (const f of await db.query<ParquetFile>(`SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files`)) manifest.add(f);
const [hot] = await db.query<{ events: number; visits: number }>(`SELECT (SELECT count(*) FROM events)::INTEGER AS events, (SELECT count(*) FROM visits)::INTEGER AS visits`);
console.log(`left by the imports: ${hot!.events.toLocaleString('en')} hot events, ${hot!.visits.toLocaleString('en')} hot visits, ${manifest.files('events', acct.site.id).length} event files`);

srv = await startServer({ dataDir: DIR, env });
const out: [string, string, number, number][] = [];
try {
  for (const s of scenarios(STORE_TZ)) {
    for (const e of ENDPOINTS) {
      const url = endpointUrl(srv.url, acct.orgId, acct.site.id, e, s);
      const range = e === 'realtime' ? realtimeRange(STORE_TZ) : s.range;
      const stmt = HAND_WRITTEN[e]!({
        siteId: acct.site.id, files: manifest, tz: STORE_TZ, range, filter: e === 'realtime' ? undefined : s.filter,
        events: tableSource(manifest, 'events', acct.site.id, range), visits: tableSource(manifest, 'visits', acct.site.id, range),
      });
      const { http, sql } = await timeSideBySide(`${e} ${s.name}`, Number(args.runs), () => fetch(url, { headers: { authorization: `Bearer ${acct.token}` } }), db, stmt);
      out.push([e, s.name, http, sql]);
      console.log(`${e} ${s.name}: HTTP ${http.toFixed(0)} ms, SQL ${sql.toFixed(0)} ms (${((performance.now() - t0) / 1000).toFixed(0)} s since the first import)`);
    }
  }
  const compacted = srv.logs().split('\n').filter((l) => /"msg":"compact/.test(l)).length;
  console.log(`\n${EVENTS.toLocaleString('en')} events imported in ${args.lines}-line requests, timed without waiting for compaction (${compacted} compaction log lines meanwhile), DuckDB memory_limit ${args.memory}, p50 of ${args.runs} runs (ms), load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| endpoint | scenario | HTTP p50 | hand-written SQL p50 | ratio |');
  console.log('|---|---|---:|---:|---:|');
  for (const [e, s, http, sql] of out) console.log(`| ${e} | ${s} | ${http.toFixed(0)} | ${sql.toFixed(0)} | ${(http / sql).toFixed(2)} |`);
} finally {
  await db.close();
  await srv.stop();
  rmSync(COPY, { recursive: true, force: true });
}
