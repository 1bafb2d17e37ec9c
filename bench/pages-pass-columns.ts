// What the pages pass would cost with other stored columns (not a test): the marked pages statement (visitors, visits,
// pageviews per path and the scope's visitors: planner.ts, marked-sources.ts) over one month of a benchmark store's
// event files as stored, and over rewritten copies of its four columns: LZ4 or uncompressed, the marks as INT32
// seconds instead of BIGINT milliseconds, the pageview test as a stored BOOLEAN, the path as a dense INTEGER id. Prints
// the process CPU (DuckDB's threads included) and wall time per statement, median of --runs, and the columns' bytes.
// Usage: bun bench/pages-pass-columns.ts [--store query-data-100000000] [--month 2026-11] [--runs 7] [--threads 2]
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MARK_OFFSET_MS } from '../src/storage/mark-time.ts';

const { values: args } = parseArgs({ options: { store: { type: 'string', default: 'query-data-100000000' }, month: { type: 'string' }, runs: { type: 'string', default: '7' }, threads: { type: 'string', default: '2' } } });
const store = join(import.meta.dir, 'out', args.store!, 'parquet', 'events');
const site = readdirSync(store).find((d) => d.startsWith('site='))!;
const month = args.month ?? readdirSync(join(store, site)).sort().at(-1)!.replace('month=', '');
const files = join(store, site, `month=${month}`, '*.parquet');
const out = join(import.meta.dir, 'out', 'pages-pass-columns', month);
mkdirSync(out, { recursive: true });

const db = await DuckDBInstance.create(':memory:', { threads: args.threads! });
const c = await db.connect();
await c.run('SET GLOBAL parquet_metadata_cache = true');
// The range starts at the month's start: its marks compared with that, as a 30-day range's are with its start.
const fromMs = Date.parse(`${month}-01T00:00:00Z`);
const F = BigInt(fromMs + MARK_OFFSET_MS);
// INT32 marks: seconds since 2000-01-01 (+1, so that 0 stays "never"), sign kept; a range start is a whole second.
const EPOCH_MARK = BigInt(Date.parse('2000-01-01T00:00:00Z') + MARK_OFFSET_MS);
const F32 = (F - EPOCH_MARK) / 1000n + 1n;
const secs = (col: string) => `(CASE WHEN ${col} = 0 THEN 0 ELSE sign(${col}) * ((abs(${col}) - ${EPOCH_MARK}) // 1000 + 1) END)::INTEGER`;

for (const codec of ['lz4', 'uncompressed']) {
  const target = join(out, `${codec}.parquet`);
  if (existsSync(target)) continue;
  await c.run(`COPY (WITH ids AS (SELECT path, (row_number() OVER (ORDER BY path))::INTEGER AS path_id FROM (SELECT DISTINCT path FROM read_parquet('${files}')))
    SELECT e.path, ids.path_id, e.event_type, e.event_type = 'pageview' AS is_pv, e.page_prev, e.seen_prev, ${secs('e.page_prev')} AS p32, ${secs('e.seen_prev')} AS s32
    FROM read_parquet('${files}', filename = true) e LEFT JOIN ids USING (path) ORDER BY e.filename, e.ts)
    TO '${target}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 30720)`);
}

const pass = (src: string, o: { path?: string; pv?: string; page?: string; seen?: string; from?: bigint } = {}) => {
  const [page, seen, from] = [o.page ?? 'page_prev', o.seen ?? 'seen_prev', o.from ?? F];
  return `SELECT ${o.path ?? 'path'} AS name, count_if(abs(${page}) < ${from}) AS visitors, count_if(${page} < ${from}) AS visits,
    count_if(${o.pv ?? "event_type = 'pageview'"}) AS pageviews, count_if(${seen} < ${from}) AS scope_visitors FROM ${src} GROUP BY ALL ORDER BY ALL`;
};
const probe = (codec: string) => `read_parquet('${join(out, `${codec}.parquet`)}')`;
const narrow = { pv: 'is_pv', page: 'p32', seen: 's32', from: F32 };
const variants: [string, string][] = [
  ['stored files (LZ4, every column)', pass(`read_parquet('${files}')`)],
  ['LZ4, the four columns', pass(probe('lz4'))],
  ['LZ4, is_pv + INT32 marks', pass(probe('lz4'), narrow)],
  ['LZ4, path id + is_pv + INT32 marks', pass(probe('lz4'), { ...narrow, path: 'path_id' })],
  ['uncompressed, the four columns', pass(probe('uncompressed'))],
  ['uncompressed, is_pv + INT32 marks', pass(probe('uncompressed'), narrow)],
  ['uncompressed, path id + is_pv + INT32 marks', pass(probe('uncompressed'), { ...narrow, path: 'path_id' })],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const counts = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${files}')`)).getRowObjectsJson()[0]!;
console.log(`${args.store} month ${month}: ${counts.n} events, ${args.threads} threads, median of ${args.runs} runs`);
let base = 0;
let answer = '';
for (const [name, q] of variants) {
  const cpu: number[] = [], wall: number[] = [];
  for (let i = 0; i < Number(args.runs); i++) {
    const [c0, t0] = [process.cpuUsage(), performance.now()];
    const r = await c.runAndReadAll(q);
    const u = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((u.user + u.system) / 1000);
    // Every variant must give the stored files' answer (path ids aside: compared by their counts).
    const got = JSON.stringify(r.getRows().map((row) => row.slice(1).map(String)).sort());
    if (!answer) answer = got;
    else if (got !== answer) throw new Error(`${name}: a different answer`);
  }
  base ||= median(cpu);
  console.log(`${name.padEnd(46)} CPU ${median(cpu).toFixed(0).padStart(5)} ms (${(median(cpu) / base).toFixed(2)}×)  wall ${median(wall).toFixed(0).padStart(5)} ms`);
}
const sizes = (await c.runAndReadAll(`SELECT path_in_schema AS col, sum(total_compressed_size)::BIGINT AS bytes FROM parquet_metadata('${join(out, 'lz4.parquet')}') GROUP BY ALL ORDER BY ALL`)).getRowObjectsJson();
console.log('LZ4 bytes per event:', sizes.map((s) => `${s.col} ${(Number(s.bytes) / Number(counts.n)).toFixed(2)}`).join(', '));
