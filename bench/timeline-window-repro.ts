// Reproduces issue 17.3 against the installed DuckDB: `count(*) OVER ()` over the union of a table and many
// small Parquet files, filtered to one visitor, fails with an INTERNAL error in the window operator (and the
// instance is then invalidated); the timeline's shape since (page query + count query) is run beside it.
// Run: ./node_modules/.bin/bun bench/timeline-window-repro.ts   (FILES=144 THREADS=2 RUNS=40; prints counts)
import { DuckDBInstance, listValue, version } from '@duckdb/node-api';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const FILES = Number(process.env.FILES ?? 144);
const THREADS = String(process.env.THREADS ?? 2);
const RUNS = Number(process.env.RUNS ?? 40);
const dir = join(import.meta.dir, 'out', 'timeline-window-repro');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const TABLE = `CREATE TABLE events (site_id VARCHAR, visitor_id BIGINT, ts TIMESTAMP, event_type VARCHAR, path VARCHAR, props MAP(VARCHAR, VARCHAR))`;
const setup = await DuckDBInstance.create(':memory:');
const sc = await setup.connect();
const paths: string[] = [];
for (let i = 0; i < FILES; i++) {
  const p = join(dir, `f${i}.parquet`);
  paths.push(p);
  // 1–3 rows a file, two visitors interleaved: some files hold none of visitor 7's rows.
  await sc.run(`COPY (SELECT 's' AS site_id, CASE WHEN r % 2 = 0 THEN 42 ELSE 7 END::BIGINT AS visitor_id,
      TIMESTAMP '2026-01-01' + INTERVAL (${i * 10} + r) SECOND AS ts, 'pageview' AS event_type, '/p' || r AS path,
      MAP {'k': 'v'} AS props FROM range(${1 + (i % 3)}) t(r)) TO '${p}' (FORMAT parquet)`);
}
setup.closeSync();

const SOURCE = `(SELECT * FROM events WHERE site_id = ? UNION ALL BY NAME SELECT * FROM read_parquet(?::VARCHAR[]) WHERE true)`;
const shapes: Record<string, string[]> = {
  'count(*) OVER () (before)': [`SELECT ts, path, to_json(props)::VARCHAR AS properties, count(*) OVER () AS total FROM ${SOURCE} e WHERE visitor_id = ? ORDER BY ts DESC LIMIT 50`],
  'page + count queries (now)': [
    `SELECT ts, path, to_json(props)::VARCHAR AS properties FROM ${SOURCE} e WHERE visitor_id = ? ORDER BY ts DESC LIMIT 50`,
    `SELECT count(*) AS n FROM ${SOURCE} e WHERE visitor_id = ?`,
  ],
};

console.log(`DuckDB ${version()}, ${FILES} files, threads=${THREADS}, ${RUNS} runs per shape and visitor`);
for (const [name, statements] of Object.entries(shapes)) {
  // A fresh instance per shape: the first internal error invalidates the instance it happened in.
  const inst = await DuckDBInstance.create(':memory:', { threads: THREADS });
  const c = await inst.connect();
  await c.run(TABLE);
  let failed = 0;
  let invalidated = false;
  let first = '';
  for (let i = 0; i < RUNS && !invalidated; i++) {
    for (const visitor of [42, 7]) {
      try {
        for (const s of statements) await c.runAndReadAll(s, ['s', listValue(paths), visitor]);
      } catch (e) {
        failed++;
        first ||= String((e as Error).message).split('\n')[0]!;
        invalidated = /invalidated/.test(String(e));
      }
    }
  }
  console.log(`${name}: ${failed} failed${invalidated ? ' (instance invalidated)' : ''}${first ? ` — first: ${first}` : ''}`);
  inst.closeSync();
}
