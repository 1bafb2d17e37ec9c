// Mixed-load benchmark (prints figures, asserts nothing): analytics queries while events arrive at a steady
// rate, against the same queries on the idle server earlier in the same run. On a copy of the query bench's
// store (bench/query-store.ts, built on first use): 1. queries alone, 2. events alone, 3. both at once.
//   bun bench/mixed.ts [--events 1000000] [--rate 500] [--duration 60] [--idle 30] [--clients 6] [--query-rate 6]
// --start-at <ISO time>: two runs started a little apart (the store is copied one at a time) measure together,
// e.g. two settings under the same outside load.
// --rate: events/s, sent by a paced client in its own process (open loop: sends do not wait for answers).
// --clients: query clients, each with its own API key, together starting --query-rate queries/s (a client
// whose query is still running starts its next one when it ends). The server keeps its defaults
// (INGEST_LOAD_INTERVAL_MS 5000, compaction every minute) unless the environment sets them.
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateEvents } from './generate.ts';
import { compactStore, prepareStore, storeDir } from './query-store.ts';
import { schedWindow } from './proc-stats.ts';
import { startServer } from '../test/helpers/server.ts';
import { client } from '../test/helpers/api.ts';

const { values: opt } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    rate: { type: 'string', default: '500' },
    duration: { type: 'string', default: '60' },
    idle: { type: 'string', default: '30' },
    clients: { type: 'string', default: '6' },
    'query-rate': { type: 'string', default: '6' },
    // Start measuring at this time (ISO 8601), after the set-up: two runs side by side measure together.
    'start-at': { type: 'string' },
    // Internal: the paced event sender, run as a child process (see sendEvents).
    sender: { type: 'string' },
  },
});

type Sent = { latencies: number[]; late: number[]; errors: number };

/**
 * The paced sender: `rate` events/s for `seconds`, each request started on its schedule whether or not
 * earlier ones were answered. Latency counts from the request's start; `late` is how far behind its schedule
 * the sender itself started it (its own CPU starvation, not the server's).
 */
async function sendEvents(url: string, file: string, rate: number, seconds: number): Promise<Sent> {
  const reqs = readFileSync(file, 'utf8').trim().split('\n').map((l) => {
    const [ua, ip, body] = l.split('\t') as [string, string, string];
    return { headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': ua, 'x-forwarded-for': ip }, body };
  });
  const out: Sent = { latencies: [], late: [], errors: 0 };
  const inflight = new Set<Promise<void>>();
  const t0 = performance.now();
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total;) {
    const now = performance.now();
    for (; i < total && t0 + (i * 1000) / rate <= now; i++) {
      const r = reqs[i % reqs.length]!;
      const start = performance.now();
      out.late.push(start - (t0 + (i * 1000) / rate));
      const p = fetch(`${url}/api/v1/event`, { method: 'POST', headers: r.headers, body: r.body })
        .then(async (res) => { await res.arrayBuffer(); if (res.status !== 202) out.errors++; else out.latencies.push(performance.now() - start); })
        .catch(() => { out.errors++; })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
    await Bun.sleep(1);
  }
  await Promise.all(inflight);
  return out;
}

if (opt.sender) {
  const { url, file, rate, seconds } = JSON.parse(opt.sender);
  console.log(JSON.stringify(await sendEvents(url, file, rate, seconds)));
  process.exit(0);
}

const EVENTS = Number(opt.events);
const RATE = Number(opt.rate);
const DURATION = Number(opt.duration);
const IDLE = Number(opt.idle);
const CLIENTS = Number(opt.clients);
const QUERY_RATE = Number(opt['query-rate']);

/** Nearest-rank percentile of unsorted samples. */
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const f1 = (n: number) => (isNaN(n) ? '–' : n < 10 ? n.toFixed(1) : n.toFixed(0));

// 1. The store (built once, kept in bench/out/), copied so that every run starts from the same data.
const meta = await prepareStore(EVENTS);
await compactStore(EVENTS);
// Per process: two runs (e.g. two settings side by side, under the same outside load) do not collide.
const dataDir = join(import.meta.dir, 'out', `mixed-data-${process.pid}`);
rmSync(dataDir, { recursive: true, force: true });
cpSync(storeDir(EVENTS), dataDir, { recursive: true });

// debug: the loader logs each load; an empty value is the server's default (the helper would load at once).
const srv = await startServer({ dataDir, env: {
  TRUST_PROXY: 'true', LOG_LEVEL: 'debug', INGEST_LOAD_INTERVAL_MS: process.env.INGEST_LOAD_INTERVAL_MS ?? '', DUCKDB_MEMORY_LIMIT: process.env.DUCKDB_MEMORY_LIMIT ?? '',
} });
const api = client(srv.url);
const keys: string[] = [];
for (let i = 0; i < CLIENTS; i++) {
  const k = await api.post(`/api/v1/organizations/${meta.orgId}/api-keys`, { name: `mixed ${i}`, scopes: ['analytics:read'] }, meta.token);
  if (k.status !== 201) throw new Error(`API key: ${k.text} (rebuild the store: bun bench/query.ts --events ${EVENTS} --fresh --runs 0)`);
  keys.push(k.body.data.key);
}
const site = (await api.get(`/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}`, meta.token)).body.data as { public_id: string };

// 2. Live events for the site from the realistic generator (the server stamps them now), one request each.
const eventsFile = join(import.meta.dir, 'out', `mixed-events-${process.pid}.tsv`);
const lines: string[] = [];
for (const e of generateEvents({ events: 50_000, site: site.public_id, seed: 13, days: 1 })) {
  const { timestamp: _t, ip, user_agent, ...body } = e;
  lines.push(`${user_agent}\t${ip}\t${JSON.stringify(body)}`);
}
await Bun.write(eventsFile, lines.join('\n') + '\n');

// 3. The query mix: what a dashboard asks for, mostly the last 30 days, some shorter and one year.
const MIX = [
  'stats?period=30d', 'charts?period=30d', 'pages?period=30d', 'sources?period=30d', 'channels?period=7d',
  'devices?period=30d', 'locations?period=30d', 'realtime', 'stats?period=day', 'pages?period=12mo',
];
const base = `${srv.url}/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}/analytics/`;

type Timed = { ms: number; q: string };

/** `clients` loops for `seconds`, each starting a query every clients/rate seconds (or when its last one ended, if later). */
async function queries(seconds: number): Promise<{ done: Timed[]; errors: string[] }> {
  const done: Timed[] = [];
  const errors: string[] = [];
  const interval = (1000 * CLIENTS) / QUERY_RATE;
  const end = performance.now() + seconds * 1000;
  await Promise.all(keys.map(async (key, c) => {
    // Clients start spread over one interval, each at its own place in the mix.
    let next = performance.now() + (c * interval) / CLIENTS;
    for (let i = c; ; i++) {
      await Bun.sleep(Math.max(0, next - performance.now()));
      if (performance.now() >= end) return;
      const q = MIX[i % MIX.length]!;
      const t0 = performance.now();
      const r = await fetch(base + q, { headers: { authorization: `Bearer ${key}` } });
      const text = await r.text();
      if (r.status === 200) done.push({ ms: performance.now() - t0, q });
      else errors.push(`${q}: ${r.status} ${text.slice(0, 200)}`);
      next = Math.max(next + interval, performance.now());
    }
  }));
  return { done, errors };
}

/** The paced sender in its own process, so that its CPU is not the query clients' (and neither delays the other's timing). */
async function ingest(seconds: number): Promise<Sent> {
  const p = Bun.spawn([process.execPath, import.meta.path, '--sender', JSON.stringify({ url: srv.url, file: eventsFile, rate: RATE, seconds })], { stdout: 'pipe', stderr: 'inherit' });
  const text = await new Response(p.stdout).text();
  await p.exited;
  return JSON.parse(text) as Sent;
}

/** Server log lines (JSON) written since `from` characters into its output. */
const logsSince = (from: number) => srv.logs().slice(from).split('\n').filter((l) => l.startsWith('{')).map((l) => { try { return JSON.parse(l); } catch { return {}; } });

type Phase = { name: string; q?: Timed[]; qErrors?: string[]; sent?: Sent; sched: ReturnType<ReturnType<typeof schedWindow>>; logs: any[] };

async function phase(name: string, run: () => Promise<{ q?: Timed[]; qErrors?: string[]; sent?: Sent }>): Promise<Phase> {
  const from = srv.logs().length;
  const window = schedWindow(srv.proc.pid);
  const r = await run();
  return { name, ...r, sched: window(), logs: logsSince(from) };
}

console.log(`${EVENTS.toLocaleString('en')}-event store; events at ${RATE}/s; ${CLIENTS} query clients at ${QUERY_RATE} queries/s in all; loopback, ${navigator.hardwareConcurrency} cores`);
if (opt['start-at']) await Bun.sleep(Math.max(0, Date.parse(opt['start-at']) - Date.now()));
await queries(MIX.length * CLIENTS / QUERY_RATE); // warm-up: each query of the mix at least once
const phases: Phase[] = [];
phases.push(await phase('queries, idle server', async () => { const r = await queries(IDLE); return { q: r.done, qErrors: r.errors }; }));
phases.push(await phase(`events alone (${RATE}/s)`, async () => ({ sent: await ingest(IDLE) })));
await Bun.sleep(6000); // the last of them loaded
phases.push(await phase(`queries + ${RATE} events/s`, async () => {
  const [sent, r] = await Promise.all([ingest(DURATION), queries(DURATION)]);
  return { sent, q: r.done, qErrors: r.errors };
}));

console.log('\n| phase | queries | query p50 | query p99 | query max | events | event p50 | event p99 | event max | server main thread on CPU / waiting | both cores busy |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const p of phases) {
  const q = p.q?.map((t) => t.ms) ?? [];
  const e = p.sent?.latencies ?? [];
  console.log(`| ${p.name} | ${q.length || '–'} | ${f1(pct(q, 50))} | ${f1(pct(q, 99))} | ${f1(pct(q, 100))} | ${e.length || '–'} | ${f1(pct(e, 50))} | ${f1(pct(e, 99))} | ${f1(pct(e, 100))} | ${(100 * p.sched.mainOnCpu).toFixed(0)}% / ${(100 * p.sched.mainWaiting).toFixed(0)}% | ${(100 * p.sched.machineBusy).toFixed(0)}% |`);
}
console.log('(latencies in ms; events: 202s only)');
const [idle, alone, mixed] = phases as [Phase, Phase, Phase];
const idleP99 = pct(idle.q!.map((t) => t.ms), 99);
const mixedP99 = pct(mixed.q!.map((t) => t.ms), 99);
const eventP99 = pct(mixed.sent!.latencies, 99);
console.log(`\nquery p99 under load / idle: ${(mixedP99 / idleP99).toFixed(2)}x (${f1(mixedP99)} / ${f1(idleP99)} ms; targets ≤ 2x and ≤ 250 ms)`);
console.log(`event p99 under load: ${f1(eventP99)} ms (target ≤ 20 ms at 500 events/s); alone: ${f1(pct(alone.sent!.latencies, 99))} ms`);

// Where the slow ones were: per query of the mix, and the server's loads and compaction runs meanwhile.
const per = (ts: Timed[]) => new Map(MIX.map((m) => [m, ts.filter((t) => t.q === m).map((t) => t.ms)]));
const idleBy = per(idle.q!);
const mixedBy = per(mixed.q!);
console.log('\n| query | idle p50 | idle max | loaded p50 | loaded max |\n|---|---:|---:|---:|---:|');
for (const m of MIX) console.log(`| ${m} | ${f1(pct(idleBy.get(m)!, 50))} | ${f1(pct(idleBy.get(m)!, 100))} | ${f1(pct(mixedBy.get(m)!, 50))} | ${f1(pct(mixedBy.get(m)!, 100))} |`);
for (const p of [alone, mixed]) {
  const loads = p.logs.filter((l) => l.msg === 'ingest loaded');
  const compactions = p.logs.filter((l) => l.msg === 'compacted');
  const loadMs = loads.map((l) => Number(l.ms)).filter((x) => !isNaN(x));
  const slow = p.logs.filter((l) => l.msg === 'ingest log write slow');
  console.log(`${p.name}: ${loads.length} loads (${loads.reduce((s, l) => s + (l.rows ?? 0), 0).toLocaleString('en')} events${loadMs.length ? `, ${f1(pct(loadMs, 50))} ms p50, ${f1(pct(loadMs, 100))} ms max` : ''}), ` +
    `${compactions.length} compaction runs${compactions.length ? ` (${compactions.map((c) => `${c.ms} ms, ${c.merged} files merged`).join('; ')})` : ''}; ` +
    `${slow.length} log writes of ≥ 20 ms${slow.length ? ` (max ${Math.max(...slow.map((l) => l.ms))} ms, ${slow.reduce((s, l) => s + l.events, 0)} events waiting)` : ''}; ` +
    `sender late p99 ${f1(pct(p.sent!.late, 99))} ms; ${p.sent!.errors} event errors`);
}
const qErrors = phases.flatMap((p) => p.qErrors ?? []);
if (qErrors.length) console.log(`query errors (${qErrors.length}): ${qErrors.slice(0, 3).join(' | ')}`);
// Which pool ran (UV_THREADPOOL_SIZE, src/main.ts): Bun names one thread more "Bun Pool" than the pool holds.
const tasks = `/proc/${srv.proc.pid}/task`;
const poolThreads = readdirSync(tasks).filter((t) => readFileSync(`${tasks}/${t}/comm`, 'utf8').startsWith('Bun Pool')).length - 1;
console.log(`server worker-thread pool: ${poolThreads} threads in use (UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE || 'unset: the server sizes it'})`);
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (other processes share the ${navigator.hardwareConcurrency} cores)`);

await srv.stop();
rmSync(dataDir, { recursive: true, force: true });
rmSync(eventsFile, { force: true });
