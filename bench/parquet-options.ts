// Parquet writer options, before and after, in one run: two copies of the query bench's store, every Parquet
// file of one rewritten 1:1 with the old options and of the other with the writer's current ones (or those given),
// bytes per stored event of each, then every analytics endpoint and range timed on both servers, requests
// alternating, so both see the same load of the shared machine.
// Usage: bun bench/parquet-options.ts [--events 1000000] [--runs 15] [--before "COMPRESSION lz4"]
//          [--events-after "…"] [--visits-after "…"] [--memory 2GB] [--row-group-before N] [--row-group-after N]
// --row-group-*: rows per row group of each copy (default: the writer's, FULL_ROW_GROUP).
import { cpSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { FULL_ROW_GROUP, parquetOptions } from '../src/storage/parquet-writer.ts';
import type { Table } from '../src/storage/parquet-layout.ts';
import { startServer } from '../test/helpers/server.ts';
import { ms, timeAlternating, timeGet } from './http-timing.ts';
import { ENDPOINTS, endpointUrl, scenarios } from './query-scenarios.ts';
import { compactStore, prepareStore, storeDir, STORE_TZ } from './query-store.ts';
import { describeSize, storeSize } from './store-size.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '15' }, memory: { type: 'string', default: '2GB' },
    before: { type: 'string', default: 'COMPRESSION lz4' }, 'events-after': { type: 'string' }, 'visits-after': { type: 'string' },
    'row-group-before': { type: 'string', default: String(FULL_ROW_GROUP) }, 'row-group-after': { type: 'string', default: String(FULL_ROW_GROUP) },
  },
});
const EVENTS = Number(args.events);
const [groupBefore, groupAfter] = [Number(args['row-group-before']), Number(args['row-group-after'])];
const options = {
  before: (_: Table) => `FORMAT parquet, ${args.before}, ROW_GROUP_SIZE ${groupBefore}`,
  after: (t: Table) => {
    const given = t === 'events' ? args['events-after'] : args['visits-after'];
    return given ? `FORMAT parquet, ${given}, ROW_GROUP_SIZE ${groupAfter}` : parquetOptions(t, groupAfter);
  },
};

const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));

/** Every file rewritten in place with `opts` (same rows, same order, so the registry's rows and times still hold). */
async function rewrite(dir: string, opts: (t: Table) => string) {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  for (const tbl of ['events', 'visits'] as const) {
    for (const f of walk(join(dir, 'parquet', tbl)).filter((p) => p.endsWith('.parquet'))) {
      await c.run(`COPY (SELECT * FROM read_parquet('${f}', hive_partitioning = false)) TO '${f}.new' (${opts(tbl)})`);
      renameSync(`${f}.new`, f);
    }
  }
  c.closeSync();
  inst.closeSync();
}

const meta = await prepareStore(EVENTS);
await compactStore(EVENTS);
const dirs = { before: join(import.meta.dir, 'out', 'parquet-options-before'), after: join(import.meta.dir, 'out', 'parquet-options-after') };
for (const [k, d] of Object.entries(dirs)) {
  rmSync(d, { recursive: true, force: true });
  cpSync(storeDir(EVENTS), d, { recursive: true });
  await rewrite(d, options[k as keyof typeof options]);
  console.log(`${k}: events ${options[k as keyof typeof options]('events')}; visits ${options[k as keyof typeof options]('visits')}\n  ${describeSize(await storeSize(d, EVENTS))}`);
}

const env = { DUCKDB_MEMORY_LIMIT: args.memory! };
const before = await startServer({ dataDir: dirs.before, env });
const after = await startServer({ dataDir: dirs.after, env });
try {
  console.log(`\n| endpoint | range | before p50 / p99 | after p50 / p99 | p50 after / before |\n|---|---|---:|---:|---:|`);
  const ratios: number[] = [];
  for (const s of scenarios(STORE_TZ)) {
    for (const e of ENDPOINTS) {
      const t = await timeAlternating(Number(args.runs), {
        before: () => timeGet(endpointUrl(before.url, meta.orgId, meta.siteId, e, s), meta.token),
        after: () => timeGet(endpointUrl(after.url, meta.orgId, meta.siteId, e, s), meta.token),
      });
      ratios.push(t.after!.p50 / t.before!.p50);
      console.log(`| ${e} | ${s.name} | ${ms(t.before!.p50)} / ${ms(t.before!.p99)} | ${ms(t.after!.p50)} / ${ms(t.after!.p99)} | ${(t.after!.p50 / t.before!.p50).toFixed(2)} |`);
    }
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`\np50 after / before over ${ratios.length} cells: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}, ` +
    `geometric mean ${Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length).toFixed(2)}, range ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)} ` +
    `(${EVENTS.toLocaleString('en')} events, ${args.runs} runs per cell, load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')})`);
} finally {
  await before.cleanup();
  await after.cleanup();
}
