// Benchmark (not a test): funnel analysis, goal stats and the visitors list over 10M generated events.
// Reuses the data set bench/query.ts builds (bench/out/query-data, its bench.json); with another --data-dir
// and no data there, loads N generated events through the real import endpoint first. Then times each
// request over HTTP and prints p50/p90. Run it when no other server holds the data dir. Usage:
//   bun bench/query-goals.ts [--data-dir bench/out/query-data] [--events 10000000] [--runs 7]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateEvents } from './generate.ts';
import { startServer } from '../test/helpers/server.ts';
import { client } from '../test/helpers/api.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    'data-dir': { type: 'string', default: 'bench/out/query-data' },
    runs: { type: 'string', default: '7' },
  },
});
const EVENTS = Number(args.events);
const DATA_DIR = args['data-dir']!;
const RUNS = Number(args.runs);
/** Import bodies stay under the server's 16 MiB request limit. */
const CHUNK_BYTES = 12 * 1024 * 1024;
const sharedSetup = join(DATA_DIR, 'bench.json');
const setupFile = join(DATA_DIR, 'bench-goals.json');

type Setup = { token: string; orgId: string; siteId: string; events: number };

/** Registers an account and site, then streams the generated events through the import endpoint in chunks. */
async function load(url: string): Promise<Setup> {
  const api = client(url);
  const reg = await api.post('/api/v1/auth/register', { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  const token = reg.body.data.token;
  const orgId = reg.body.data.organization.id;
  const site = (await api.post(`/api/v1/organizations/${orgId}/sites`, { domain: 'example.com' }, token)).body.data;
  const started = performance.now();
  let lines: string[] = [];
  let bytes = 0;
  let sent = 0;
  let reported = 0;
  const flush = async () => {
    const res = await api.call('POST', `/api/v1/organizations/${orgId}/sites/${site.id}/events/import`, {
      token, raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' },
    });
    if (res.status !== 200) throw new Error(`import failed: ${res.status} ${res.text.slice(0, 300)}`);
    sent += res.body.data.imported;
    lines = [];
    bytes = 0;
    if (sent - reported < 500_000) return;
    reported = sent;
    const s = (performance.now() - started) / 1000;
    console.log(`imported ${sent.toLocaleString()} events in ${s.toFixed(0)} s (${Math.round(sent / s).toLocaleString()}/s)`);
  };
  for (const e of generateEvents({ events: EVENTS, seed: 7 })) {
    const line = JSON.stringify(e);
    lines.push(line);
    bytes += line.length + 1;
    if (bytes >= CHUNK_BYTES) await flush();
  }
  if (lines.length) await flush();
  return { token, orgId, siteId: site.id, events: sent };
}

async function time(label: string, fn: () => Promise<{ status: number; text: string }>) {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const res = await fn();
    ms.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  ms.sort((a, b) => a - b);
  const p = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!);
  console.log(`${label.padEnd(58)} p50 ${String(p(0.5)).padStart(5)} ms   p90 ${String(p(0.9)).padStart(5)} ms`);
}

const srv = await startServer({ dataDir: DATA_DIR });
try {
  let setup: Setup;
  if (existsSync(sharedSetup)) setup = JSON.parse(readFileSync(sharedSetup, 'utf8'));
  else if (existsSync(setupFile)) setup = JSON.parse(readFileSync(setupFile, 'utf8'));
  else writeFileSync(setupFile, JSON.stringify((setup = await load(srv.url))));
  console.log(`data: ${setup.events.toLocaleString()} events in ${DATA_DIR}; ${RUNS} runs per request`);
  const api = client(srv.url);
  const base = `/api/v1/organizations/${setup.orgId}/sites/${setup.siteId}`;
  // Find-or-create, so repeated runs on a shared data set do not pile up goals and funnels.
  const goals = (await api.get(`${base}/goals`, setup.token)).body.data.goals as { id: string; name: string }[];
  const goal = async (body: { name: string; [field: string]: unknown }) =>
    goals.find((g) => g.name === body.name)?.id ?? ((await api.post(`${base}/goals`, body, setup.token)).body.data.id as string);
  const funnels = (await api.get(`${base}/funnels`, setup.token)).body.data.funnels as { id: string; name: string }[];
  const signup = await goal({ name: 'Bench signup', type: 'event', event_name: 'Signup' });
  const blog = await goal({ name: 'Bench blog', type: 'pageview', path: '/blog/**' });
  await goal({ name: 'Bench docs', type: 'pageview', path: '/docs/*/*' });
  const funnel = async (window: string) =>
    funnels.find((f) => f.name === `Bench ${window}`)?.id ?? (await api.post(`${base}/funnels`, {
      name: `Bench ${window}`,
      window,
      steps: [{ type: 'pageview', value: '/' }, { type: 'goal', value: blog }, { type: 'pageview', value: '/pricing' }, { type: 'goal', value: signup }],
    }, setup.token)).body.data.id as string;
  const session = await funnel('session');
  const week = await funnel('7d');

  // A reference on the same data in the same run: the machine is shared, so absolute figures drift.
  await time('reference: GET /analytics/stats, 12mo', () => api.get(`${base}/analytics/stats?period=12mo&compare=none`, setup.token));
  await time('funnel analysis, 4 steps, session window, 12mo', () => api.get(`${base}/funnels/${session}/analysis?period=12mo`, setup.token));
  await time('funnel analysis, 4 steps, 7d window, 12mo', () => api.get(`${base}/funnels/${week}/analysis?period=12mo`, setup.token));
  await time('funnel analysis, 4 steps, session window, 30d (default period)', () => api.get(`${base}/funnels/${session}/analysis?period=30d`, setup.token));
  await time('visitors list, page 1 (50)', () => api.get(`${base}/visitors`, setup.token));
  await time('visitors list, page 200 (limit 100)', () => api.get(`${base}/visitors?page=200&limit=100`, setup.token));
  await time('visitors list, search "ab"', () => api.get(`${base}/visitors?search=ab`, setup.token));
  await time('goal stats, all goals, 12mo', () => api.get(`${base}/goals/stats?period=12mo`, setup.token));
  await time('goal stats, one goal with points, 12mo', () => api.get(`${base}/goals/${blog}/stats?period=12mo`, setup.token));
  await time('goal completions, page 1', () => api.get(`${base}/goals/${signup}/completions`, setup.token));
  const first = (await api.get(`${base}/visitors`, setup.token)).body.data.visitors[0];
  await time('visitor timeline, page 1', () => api.get(`${base}/visitors/${first.id}/timeline`, setup.token));
} finally {
  await srv.stop();
}
