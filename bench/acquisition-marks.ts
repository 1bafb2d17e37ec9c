// What per-(visitor, value) marks on the visits would win for the source and channel breakdowns (not a test,
// nothing built in src/): copies a store's visits with `source_prev` / `channel_prev` (the start of the
// visitor's previous visit with the same value, as a mark of storage/marks.ts) into bench/out, then times on
// those same files today's two statements (the metrics pass, then the candidates' visitors as bits per visitor:
// query/reports/visitor-masks.ts) against one pass whose visitors per value are a sum, and checks the counts agree.
// Usage: bun bench/acquisition-marks.ts [--data bench/out/query-data-100000000] [--runs 5]
import { DuckDBInstance, LIST, listValue, VARCHAR, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { MARK_OFFSET_MS } from '../src/storage/mark-time.ts';
import { codesOf, maskedVisitors } from '../src/query/reports/visitor-masks.ts';
import { frag } from '../src/storage/sql.ts';

const { values: args } = parseArgs({ options: { data: { type: 'string', default: 'bench/out/query-data-100000000' }, runs: { type: 'string', default: '5' } } });
const runs = Number(args.runs);
const { siteId } = JSON.parse(readFileSync(join(args.data!, 'bench.json'), 'utf8')) as { siteId: string };
const out = join(import.meta.dir, 'out', 'acquisition-marks');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'spill'), { recursive: true });
const db = await DuckDBInstance.create(':memory:', { memory_limit: '6GB', temp_directory: join(out, 'spill') });
const c = await db.connect();
// Bound as the server binds them (storage/database.ts): JS arrays as typed VARCHAR lists.
const rows = async (sql: string, params: unknown[] = []) => (await c.runAndReadAll(sql,
  params.map((p) => (Array.isArray(p) ? listValue(p) : p)) as DuckDBValue[],
  params.map((p) => (Array.isArray(p) ? LIST(VARCHAR) : undefined)) as DuckDBType[])).getRowObjectsJson() as Record<string, any>[];
const mark = (col: string) => `coalesce(epoch_ms(${col}) + ${MARK_OFFSET_MS}, 0)`;

// The marks as a rebuild would compute them: one window per value column over the site's whole history.
let t0 = performance.now();
await c.run(`COPY (SELECT visitor_id, start_ts, source, channel, pageviews, is_bounce, duration, visit_prev,
    ${mark('lag(start_ts) OVER (PARTITION BY visitor_id, source ORDER BY start_ts)')} AS source_prev,
    ${mark('lag(start_ts) OVER (PARTITION BY visitor_id, channel ORDER BY start_ts)')} AS channel_prev,
    strftime(start_ts, '%Y-%m') AS m
  FROM read_parquet('${join(args.data!, 'parquet', 'visits', `site=${siteId}`)}/*/*.parquet') ORDER BY start_ts)
  TO '${out}/visits' (FORMAT parquet, PARTITION_BY (m))`);
console.log(`marks computed and written for every visit in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const [{ last }] = await rows(`SELECT max(start_ts)::DATE + 1 AS last FROM read_parquet('${out}/visits/*/*.parquet')`) as [{ last: string }];
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, back] of [['30 days', '30 days'], ['12 months', '12 months']] as const) {
  const [{ from }] = await rows(`SELECT (DATE '${last}' - INTERVAL ${back})::DATE::VARCHAR AS from`) as [{ from: string }];
  const fromMark = BigInt(Date.parse(`${from}T00:00:00Z`) + MARK_OFFSET_MS);
  const src = `(SELECT *, visit_prev < ${fromMark} AS first_in_scope FROM read_parquet('${out}/visits/*/*.parquet', hive_partitioning = false)
    WHERE start_ts >= TIMESTAMP '${from}' AND start_ts < TIMESTAMP '${last}')`;
  for (const col of ['source', 'channel']) {
    const metrics = `SELECT ${col} AS name, count(*) AS visits, sum(pageviews) AS pageviews, 100 * avg(is_bounce::INTEGER) AS bounce_rate,
      avg(duration) AS visit_duration, sum(first_in_scope::INTEGER) AS scope_visitors FROM ${src} GROUP BY ALL`;
    const summed = metrics.replace(' FROM (SELECT', `, sum((${col}_prev < ${fromMark})::INTEGER) AS visitors FROM (SELECT`);
    // Today's candidates: the first max(2K, 20) values by visits (K = 10, the dashboard's page).
    const names = (await rows(metrics)).sort((a, b) => Number(b.visits) - Number(a.visits)).slice(0, 20).map((r) => r.name as string | null);
    const masked = maskedVisitors(frag(src), col, names);
    const before: number[] = [], after: number[] = [];
    let bits: Record<string, any>[] = [], sums: Record<string, any>[] = [];
    for (let i = 0; i < runs; i++) {
      t0 = performance.now();
      await rows(metrics);
      bits = await rows(masked.sql, masked.params);
      before.push(performance.now() - t0);
      t0 = performance.now();
      sums = await rows(summed);
      after.push(performance.now() - t0);
    }
    const code = codesOf(names);
    const byCode = new Map(bits.map((r) => [Number(r.c), Number(r.visitors)]));
    const bySum = new Map(sums.map((r) => [r.name as string | null, Number(r.visitors)]));
    const same = names.every((n, i) => (byCode.get(code[i]!) ?? 0) === bySum.get(n));
    console.log(`${name}, ${col}: metrics + masks p50 ${p50(before).toFixed(0)} ms → one summed pass ${p50(after).toFixed(0)} ms (${(p50(after) / p50(before)).toFixed(2)}×), ` +
      `visitors of the ${names.length} candidates ${same ? 'identical' : 'DIFFER'}, load ${loadavg()[0]!.toFixed(1)}`);
  }
}
rmSync(join(out, 'spill'), { recursive: true, force: true });
