// Property index benchmark (not a test; issue 19): the Properties panel's values query and the key list with
// visitors over POST /query, answered from the property index (prop_values), against the same question under a
// filter every event passes, which the index cannot answer, so the server scans the events' property maps as
// before the index. Requests alternate run by run; prints p50 wall time, the server's CPU per request (Linux: the
// figure other load moves least), the ratio, whether the answers are equal, and the index's bytes per event.
// The server migrates the store at start (the index is backfilled once): pass --data a copy to keep the original.
// Usage: bun bench/props-index.ts [--events 10000000] [--runs 7] [--data <store dir>]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from '../test/helpers/server.ts';
import { storeDir, type StoreMeta } from './query-store.ts';
import { cpuSeconds } from './proc-stats.ts';
import { p50 } from './side-by-side.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '7' }, data: { type: 'string' } } });
const RUNS = Number(args.runs);
const DATA_DIR = args.data ?? storeDir(Number(args.events));
if (!existsSync(join(DATA_DIR, 'bench.json'))) {
  console.error(`No benchmark data in ${DATA_DIR}: run \`bun bench/query.ts --events ${args.events}\` first.`);
  process.exit(1);
}
const meta = JSON.parse(readFileSync(join(DATA_DIR, 'bench.json'), 'utf8')) as StoreMeta;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

/** A filter every event passes: it keeps the index out, so the query reads the events. */
const EVERY_EVENT = ['is_not', 'event:page', ['/no-such-page']];
const values = (key: string, date_range: string) => ({ date_range, metrics: ['visitors', 'events', 'percentage'], dimensions: [`event:props:${key}`],
  filters: [['is_not', `event:props:${key}`, ['(none)']]], pagination: { limit: 9 } });
const CASES: [string, { filters?: unknown[] } & Record<string, unknown>][] = [
  ['values of plan, 12 months (the panel)', values('plan', '12mo')],
  ['values of button, 12 months', values('button', '12mo')],
  ['values of plan, 30 days', values('plan', '30d')],
  ['key list with visitors, 12 months', { date_range: '12mo', metrics: ['visitors', 'events'], dimensions: ['event:props'], pagination: { limit: 100 } }],
];

const t0 = performance.now();
const srv = await startServer({ dataDir: DATA_DIR });
console.log(`server up in ${((performance.now() - t0) / 1000).toFixed(1)} s (the first start backfills the index)`);
const post = async (body: unknown) => {
  const c0 = cpuSeconds(srv.proc.pid);
  const t = performance.now();
  const r = await fetch(`${srv.url}/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}/query`, {
    method: 'POST', headers: { authorization: `Bearer ${meta.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${text}`);
  const ms = performance.now() - t;
  const d = JSON.parse(text).data;
  return { ms, cpu: (cpuSeconds(srv.proc.pid) - c0) * 1000, answer: JSON.stringify([d.results, d.meta]) };
};
try {
  console.log(`\n${meta.events.toLocaleString('en')} events, p50 of ${RUNS} runs (ms), index and scan alternating, load average ${load()}`);
  console.log('| query | scan | index | ratio | CPU/request scan | CPU/request index | same answer |\n|---|---:|---:|---:|---:|---:|---|');
  for (const [name, body] of CASES) {
    const scanBody = { ...body, filters: [...(body.filters ?? []), EVERY_EVENT] };
    for (let i = 0; i < 2; i++) { await post(body); await post(scanBody); }
    const scan: number[] = [], index: number[] = [];
    let cpuScan = 0, cpuIndex = 0, same = true;
    for (let i = 0; i < RUNS; i++) {
      const a = await post(scanBody);
      const b = await post(body);
      scan.push(a.ms); index.push(b.ms);
      cpuScan += a.cpu; cpuIndex += b.cpu;
      same &&= a.answer === b.answer;
    }
    console.log(`| ${name} | ${p50(scan).toFixed(0)} | ${p50(index).toFixed(0)} | ${(p50(index) / p50(scan)).toFixed(2)}× | ${(cpuScan / RUNS).toFixed(0)} | ${(cpuIndex / RUNS).toFixed(0)} | ${same} |`);
  }
  console.log(`load average after: ${load()}`);
} finally {
  await srv.stop();
}

// The index's share of the store at rest: its blocks in the database file, per stored event.
const inst = await DuckDBInstance.create(join(DATA_DIR, 'tern.duckdb'), { access_mode: 'READ_ONLY' });
try {
  const c = await inst.connect();
  const [[rows, bytes]] = (await c.runAndReadAll(`SELECT (SELECT count(*) FROM prop_values), (SELECT count(DISTINCT block_id) FROM pragma_storage_info('prop_values') WHERE persistent)
    * (SELECT any_value(block_size) FROM pragma_database_size())`)).getRows().map((r) => r.map(Number));
  console.log(`prop_values: ${rows!.toLocaleString('en')} rows, ${(bytes! / 1e6).toFixed(1)} MB: ${(bytes! / rows!).toFixed(1)} bytes per row, ${(bytes! / meta.events).toFixed(2)} bytes per stored event`);
  c.closeSync();
} finally {
  inst.closeSync();
}
