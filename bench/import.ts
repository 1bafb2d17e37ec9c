// Import benchmark (not a test): N generated events (default 10M, one site, 12 months) sent over HTTP to a real
// server as NDJSON requests of 50,000 lines, into a store that grows with every request. Prints the rate per
// million events stored (per tenth of shorter runs) beside the first one's (the baseline: an almost empty store)
// and the 30k events/s target,
// and the visits stored against the visits the same events hold (each visitor's events in time order, cut at
// gaps of 30 minutes), which are equal when imports continue visits across requests. Beside each rate, the
// server's CPU time per 1,000 events (user + system, all threads): a figure other load on a shared machine
// does not skew the way it skews the rate.
// Usage: bun bench/import.ts [--events 10000000] [--lines 50000] [--memory 1GB]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateEvents, type ImportEvent } from './generate.ts';
import { startServer } from '../test/helpers/server.ts';
import { setupAccount } from '../test/helpers/api.ts';
import { cpuSeconds } from './proc-stats.ts';

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '10000000' }, lines: { type: 'string', default: '50000' }, memory: { type: 'string', default: '1GB' } },
});
const EVENTS = Number(args.events);
const LINES = Number(args.lines);
const TARGET = 30_000;
const DATA_DIR = join(import.meta.dir, 'out', `import-data-${EVENTS}`);
const GAP_MS = 30 * 60_000;
/** A row per million stored; per tenth of the run when it is shorter than 10M. */
const STEP = Math.min(1_000_000, Math.max(LINES, Math.round(EVENTS / 10)));

rmSync(DATA_DIR, { recursive: true, force: true });
const srv = await startServer({ dataDir: DATA_DIR, env: { DUCKDB_MEMORY_LIMIT: args.memory! } });
const acct = await setupAccount(srv.url);
const url = `${srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import`;

// The generator yields visitor by visitor, each visitor's events in time order: the true visits are counted as
// the lines go out.
const gen = generateEvents({ events: EVENTS, seed: 7, end: new Date(Date.now() - 86_400_000) });
let trueVisits = 0;
let lastVisitor = '';
let lastMs = 0;
const count = (e: ImportEvent) => {
  const ms = Date.parse(e.timestamp);
  if (e.visitor_uid !== lastVisitor || ms - lastMs >= GAP_MS) trueVisits++;
  lastVisitor = e.visitor_uid;
  lastMs = ms;
};

function body(): string | null {
  const out: string[] = [];
  while (out.length < LINES) {
    const r = gen.next();
    if (r.done) break;
    count(r.value);
    out.push(JSON.stringify(r.value));
  }
  return out.length ? out.join('\n') + '\n' : null;
}

const secs = (ms: number) => (ms / 1000).toFixed(1);
console.log(`import bench: ${EVENTS.toLocaleString('en')} events in requests of ${LINES.toLocaleString('en')} lines (DUCKDB_MEMORY_LIMIT ${args.memory})`);
console.log(`stored (M) | events/s last ${(STEP / 1e6).toFixed(1)}M | vs first ${(STEP / 1e6).toFixed(1)}M | vs 30k target | server CPU ms/1k events`);
const pid = srv.proc.pid;
let stepCpu = cpuSeconds(pid);
const cpu0 = stepCpu;
let stored = 0;
let stepStart = performance.now();
let stepEvents = 0;
let baseline = 0;
let slowest = Infinity;
const t0 = performance.now();
for (let b = body(); b !== null; b = body()) {
  const r = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/x-ndjson' }, body: b });
  const res = JSON.parse(await r.text());
  if (r.status !== 200 || !res.data) throw new Error(`request failed: ${r.status} ${JSON.stringify(res)}`);
  stored += res.data.imported;
  stepEvents += res.data.imported;
  if (stepEvents >= STEP || stored >= EVENTS) {
    const rate = stepEvents / ((performance.now() - stepStart) / 1000);
    baseline ||= rate;
    slowest = Math.min(slowest, rate);
    const cpu = cpuSeconds(pid);
    console.log(`${(stored / 1e6).toFixed(2).padStart(10)} | ${Math.round(rate).toLocaleString('en').padStart(17)} | ${(rate / baseline).toFixed(2).padStart(15)} | ${(rate / TARGET).toFixed(2).padStart(14)} | ${((cpu - stepCpu) * 1e6 / stepEvents).toFixed(0).padStart(23)}`);
    stepCpu = cpu;
    stepStart = performance.now();
    stepEvents = 0;
  }
}
const total = performance.now() - t0;
const cpuTotal = cpuSeconds(pid) - cpu0;
console.log(`total: ${stored.toLocaleString('en')} events in ${secs(total)} s = ${Math.round(stored / (total / 1000)).toLocaleString('en')} events/s; slowest step ${Math.round(slowest).toLocaleString('en')} events/s (${(slowest / TARGET).toFixed(2)}x target); server CPU ${cpuTotal.toFixed(1)} s = ${(cpuTotal * 1e6 / stored).toFixed(0)} ms/1k events`);

const stats = await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/stats?period=all`, acct.token);
const visits = stats.body.data.metrics.visits;
console.log(`visits stored ${visits.toLocaleString('en')}, held by the events ${trueVisits.toLocaleString('en')} (${visits - trueVisits >= 0 ? '+' : ''}${visits - trueVisits})`);
if (process.env.BENCH_LOGS) console.log(srv.logs().split("\n").filter((l) => /import loaded|compacted|marks/.test(l)).join("\n"));
await srv.cleanup();
