// Query benchmark (not a test): 10M generated events for one site over 12 months, loaded through the import
// code, then every analytics endpoint timed over HTTP against the same question as one hand-written DuckDB
// statement on the same files. Prints p50 per endpoint and the ratio.
// Usage: bun bench/query.ts [--events 10000000] [--runs 5] [--memory 2GB] [--fresh]
// --memory is DuckDB's memory_limit for the server (DUCKDB_MEMORY_LIMIT) and the hand-written side alike.
// The loaded data dir (bench/out/query-data for 10M events) is kept and reused; --fresh rebuilds it.
import { parseArgs } from 'node:util';
import { tableSource } from '../src/storage/sources.ts';
import { realtimeRange } from '../src/query/parse/period.ts';
import { ENDPOINTS, endpointUrl, scenarios } from './query-scenarios.ts';
import { HAND_WRITTEN } from './query-sql.ts';
import { compactStore, prepareStore, storeDir, STORE_TZ, type StoreMeta as Meta } from './query-store.ts';
import { runSummary, timeSideBySide, withServerAndCopy } from './side-by-side.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' }, fresh: { type: 'boolean', default: false },
    memory: { type: 'string', default: '2GB' },
  },
});
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const DATA_DIR = storeDir(EVENTS);
const TZ = STORE_TZ;

async function timeBoth(meta: Meta) {
  return withServerAndCopy(DATA_DIR, 'query-sql-copy', args.memory!, async (srv, copy) => {
    const out = new Map<string, { http: number; sql: number }>();
    for (const s of scenarios(TZ)) {
      for (const e of ENDPOINTS) {
        const url = endpointUrl(srv.url, meta.orgId, meta.siteId, e, s);
        const range = e === 'realtime' ? realtimeRange(TZ) : s.range;
        const stmt = HAND_WRITTEN[e]!({
          siteId: meta.siteId, files: copy.manifest, tz: TZ, range, filter: e === 'realtime' ? undefined : s.filter,
          events: tableSource(copy.manifest, 'events', meta.siteId, range), visits: tableSource(copy.manifest, 'visits', meta.siteId, range),
        });
        const { http, sql } = await timeSideBySide(`${e} ${s.name}`, RUNS, () => fetch(url, { headers: { authorization: `Bearer ${meta.token}` } }), copy.db, stmt);
        out.set(`${e} ${s.name}`, { http, sql });
        console.log(`${e} ${s.name}: HTTP ${http.toFixed(0)} ms, SQL ${sql.toFixed(0)} ms`);
      }
    }
    return out;
  });
}

const meta = await prepareStore(EVENTS, args.fresh);
await compactStore(EVENTS);
const times = await timeBoth(meta);
console.log(runSummary(EVENTS, args.memory!, RUNS));
console.log('| endpoint | scenario | HTTP p50 | hand-written SQL p50 | ratio |');
console.log('|---|---|---:|---:|---:|');
for (const [k, t] of times) {
  const [e, s] = k.split(' ');
  console.log(`| ${e} | ${s} | ${t.http.toFixed(0)} | ${t.sql.toFixed(0)} | ${(t.http / t.sql).toFixed(2)} |`);
}
