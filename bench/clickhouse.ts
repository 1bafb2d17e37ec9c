// ClickHouse beside DuckDB (not a test): the query bench's store (10M events by default, `bun bench/query.ts`
// builds it) answered by two servers, one on DuckDB, one with ANALYTICS_ENGINE=clickhouse on ClickHouse's engine
// in process (chdb, installed into .cache/chdb by `npm test`), every endpoint over 12 months, 30 days and a
// filtered 90 days, requests alternating between the two; the answers are compared byte for byte.
// The ClickHouse side works on a copy of the store whose tables are filled straight from its Parquet files (the
// same rows the mirror would load, without its JSON round trip), once per copy.
// Usage: bun bench/clickhouse.ts [--events 10000000] [--runs 5]
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../test/helpers/server.ts';
import { chdbClient } from '../test/helpers/chdb.ts';
import { chdbInstalled } from '../src/storage/clickhouse/client.ts';
import { migrateClickHouse } from '../src/storage/clickhouse/schema.ts';
import { Database } from '../src/storage/database.ts';
import { ENDPOINTS, endpointUrl, scenarios } from './query-scenarios.ts';
import { ms, timeAlternating } from './http-timing.ts';
import { STORE_TZ, storeDir } from './query-store.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' } } });
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const STORE = storeDir(EVENTS);
const COPY = join(import.meta.dir, 'out', `clickhouse-${EVENTS}`);
if (!existsSync(join(STORE, 'bench.json'))) {
  console.error(`No benchmark data in ${STORE}: run \`bun bench/query.ts --events ${EVENTS}\` first.`);
  process.exit(1);
}
if (!chdbInstalled()) {
  console.error('chdb is not installed: run `npm test` once, or `npm i --prefix .cache/chdb --no-save chdb@3.4.0`.');
  process.exit(1);
}
const meta = JSON.parse(readFileSync(join(STORE, 'bench.json'), 'utf8')) as { orgId: string; siteId: string; token: string };

/** A copy of the store with ClickHouse's tables filled from its Parquet files, every file listed live. */
async function prepareCopy() {
  if (existsSync(join(COPY, 'chdb-ready'))) return;
  rmSync(COPY, { recursive: true, force: true });
  cpSync(STORE, COPY, { recursive: true });
  const db = await Database.open(COPY, 2, '2GB');
  const ch = chdbClient(join(COPY, 'chdb'));
  try {
    await migrateClickHouse(ch, db, 'tern');
    const files = await db.query<{ path: string; tbl: 'events' | 'visits' }>('SELECT path, tbl FROM parquet_files ORDER BY path');
    const t0 = performance.now();
    for (const f of files) {
      // The file's own columns by name (the table has more: _file, and columns added since).
      const cols = (await db.query<{ column_name: string }>(`DESCRIBE SELECT * FROM read_parquet('${join(COPY, f.path)}', hive_partitioning = false)`)).map((c) => `\`${c.column_name}\``);
      await ch.command({
        query: `INSERT INTO tern.${f.tbl} (${cols.join(', ')}, _file) SELECT ${cols.join(', ')}, {path:String} FROM file({abs:String}, Parquet)`,
        query_params: { path: f.path, abs: join(COPY, f.path) },
      });
    }
    await ch.insert({ table: 'tern.tern_files', values: files.map((f) => ({ path: f.path, tbl: f.tbl, live: 1 })), format: 'JSONEachRow' });
    const [n] = await (await ch.query({ query: 'SELECT count() AS n FROM tern.events', format: 'JSONEachRow' })).json<{ n: string }>();
    console.log(`ClickHouse tables filled from ${files.length} Parquet files in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${Number(n!.n).toLocaleString('en')} events`);
  } finally {
    await ch.close();
    await db.close();
  }
  cpSync(join(COPY, 'bench.json'), join(COPY, 'chdb-ready'));
}

await prepareCopy();
const duck = await startServer({ dataDir: STORE });
const click = await startServer({ dataDir: COPY, env: { ANALYTICS_ENGINE: 'clickhouse', CLICKHOUSE_URL: 'chdb:' } });
try {
  console.log(`${EVENTS.toLocaleString('en')} events, p50 / p99 of ${RUNS} runs (ms), DuckDB vs ClickHouse (chdb in process), requests alternating`);
  console.log('| endpoint | scenario | DuckDB p50 | ClickHouse p50 | ClickHouse / DuckDB | same answer |');
  console.log('|---|---|---:|---:|---:|:---:|');
  for (const s of scenarios(STORE_TZ)) {
    for (const e of ENDPOINTS) {
      const url = (base: string) => endpointUrl(base, meta.orgId, meta.siteId, e, s);
      const body = async (base: string) => (await fetch(url(base), { headers: { authorization: `Bearer ${meta.token}` } })).text();
      // Realtime reads the last 30 minutes, which the bench store has no events in: both answer zeros.
      const same = (await body(duck.url)) === (await body(click.url));
      const timed = async (base: string) => {
        const t0 = performance.now();
        const r = await fetch(url(base), { headers: { authorization: `Bearer ${meta.token}` } });
        await r.arrayBuffer();
        return r.status === 200 ? performance.now() - t0 : NaN;
      };
      const t = await timeAlternating(RUNS, { duckdb: () => timed(duck.url), clickhouse: () => timed(click.url) });
      console.log(`| ${e} | ${s.name} | ${ms(t.duckdb!.p50)} | ${ms(t.clickhouse!.p50)} | ${(t.clickhouse!.p50 / t.duckdb!.p50).toFixed(2)} | ${same ? 'yes' : 'NO'} |`);
    }
  }
} finally {
  await click.stop();
  await duck.stop();
}
