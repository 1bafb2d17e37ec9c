// Dashboard load benchmark (not a test): Chromium opens the dashboard of the query benchmark's site (10M events
// over 12 months, built by `bun bench/query.ts`) and times navigation → every card, the chart and every panel
// filled, for "Last 12 months" and "Last 30 days", p50 of --runs loads (targets ≤ 1.5 s and ≤ 500 ms). Baseline in
// the same run: the same API requests the page made, sent from here all at once (the server's share of the time).
// It also checks the page's requests went out in parallel (the spread of their start times), and prints the server's
// CPU time per load (Linux): on a shared machine the figure other work moves least.
// Usage: bun bench/dashboard.ts [--events 10000000] [--runs 5] [--each (also times each request alone)] [--data <a copy of the store>]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../test/helpers/server.ts';
import { launchBrowser } from '../test/tracker/browser.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' }, each: { type: 'boolean', default: false }, data: { type: 'string' } } });
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
// --data: a copy of the store, e.g. one a newer build migrated while the original keeps serving the older build.
const DATA_DIR = args.data ?? join(import.meta.dir, 'out', EVENTS === 10_000_000 ? 'query-data' : `query-data-${EVENTS}`);
const META = join(DATA_DIR, 'bench.json');
if (!existsSync(META)) {
  console.error(`No benchmark data in ${DATA_DIR}: run \`bun bench/query.ts --events ${EVENTS}\` first (it builds and keeps it).`);
  process.exit(1);
}
const meta = JSON.parse(readFileSync(META, 'utf8')) as { orgId: string; siteId: string; token: string; events: number };
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/**
 * The server process's CPU time so far (user + system, ms; Linux /proc, else null): the machine is shared, so the
 * server's CPU per load is the figure other work on the cores moves least.
 */
const cpuOf = (pid: number): number | null => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return null;
  }
};
const ms = (x: number) => `${x.toFixed(0).padStart(5)} ms`;

const srv = await startServer({ dataDir: DATA_DIR });
const browser = await launchBrowser();
try {
  const auth = { authorization: `Bearer ${meta.token}` };
  const me = await (await fetch(`${srv.url}/api/v1/auth/me`, { headers: auth })).json();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${srv.url}/login`);
  await page.getByLabel('Email').fill(me.data.user.email);
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${srv.url}/`);

  console.log(`dashboard of ${meta.events.toLocaleString('en')} events, p50 of ${RUNS} loads (after one warm-up each)`);
  for (const [label, period, target] of [['Last 12 months', '12mo', 1500], ['Last 30 days', '30d', 500]] as const) {
    const url = `${srv.url}/sites/${meta.siteId}?period=${period}`;
    const page_: number[] = [], api: number[] = [], spreads: number[] = [], sentSpreads: number[] = [], pageCpu: number[] = [], apiCpu: number[] = [];
    let requests: { url: string; method: string; body: string | null }[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const starts: { url: string; method: string; body: string | null }[] = [];
      const onRequest = (r: import('playwright-core').Request) => {
        if (r.url().includes('/api/v1/') && !r.url().includes('/realtime')) starts.push({ url: r.url(), method: r.method(), body: r.postData() });
      };
      page.on('request', onRequest);
      const c0 = cpuOf(srv.proc.pid);
      await page.goto(url);
      // The page's own clock: navigation start → the first frame with every card, the chart and every panel filled.
      const filled = await page.waitForFunction(() => document.querySelectorAll('.panel').length >= 6 && !!document.querySelector('.uplot')
        && !document.querySelector('[aria-busy="true"]') && !document.querySelector('.skeleton') && performance.now(), undefined, { polling: 'raf', timeout: 60_000 });
      const elapsed = (await filled.jsonValue()) as number;
      const c1 = cpuOf(srv.proc.pid);
      page.off('request', onRequest);
      // The Properties panel's POST …/query requests (keys, then the values of one) are replayed with their bodies.
      const data = starts.filter((s) => /\/analytics\/|\/goals|\/funnels|\/query$/.test(s.url));
      if (run === 0) { requests = data; continue; }
      page_.push(elapsed);
      if (c0 !== null && c1 !== null) pageCpu.push(c1 - c0);
      // When the page asked for its data (the Resource Timing clock): a waterfall would spread these out. The small
      // lists (sites, goals, funnels) are left out: their remembered copies are revalidated on purpose 1.5 s later.
      const asked: { start: number; sent: number }[] = await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => /\/analytics\/|\/goals\/stats|\/analysis/.test(r.name) && !r.name.includes('/realtime')).map((r) => ({ start: r.startTime, sent: r.requestStart })));
      spreads.push(asked.length ? Math.max(...asked.map((a) => a.start)) - Math.min(...asked.map((a) => a.start)) : 0);
      // When they were sent: over HTTP/1.1 Chromium keeps at most 6 connections to the server, so the 7th request on
      // waits for an answer (a queue in the browser, not a waterfall in the page).
      sentSpreads.push(asked.length ? Math.max(...asked.map((a) => a.sent)) - Math.min(...asked.map((a) => a.sent)) : 0);
      const a0 = performance.now();
      const ac0 = cpuOf(srv.proc.pid);
      await Promise.all(requests.map((q) => fetch(q.url, { method: q.method, body: q.body ?? undefined, headers: q.body ? { ...auth, 'content-type': 'application/json' } : auth })
        .then((r) => r.arrayBuffer())));
      api.push(performance.now() - a0);
      const ac1 = cpuOf(srv.proc.pid);
      if (ac0 !== null && ac1 !== null) apiCpu.push(ac1 - ac0);
    }
    if (args.each) {
      // Each request alone, one after another: which reports the view's time is made of.
      for (const q of requests) {
        const t0 = performance.now();
        await fetch(q.url, { method: q.method, body: q.body ?? undefined, headers: q.body ? { ...auth, 'content-type': 'application/json' } : auth }).then((r) => r.arrayBuffer());
        console.log(`  ${ms(performance.now() - t0)}  ${q.method} ${q.url.replace(/^.*\/api\/v1\/orgs\/[^/]+\/sites\/[^/]+/, '')}${q.body ? ` ${q.body}` : ''}`);
      }
    }
    const ratio = p50(page_) / p50(api);
    console.log(`${label.padEnd(15)} page ${ms(p50(page_))} (target ${target} ms: ${p50(page_) <= target ? 'met' : 'MISSED'})  ` +
      `same ${requests.length} API requests at once ${ms(p50(api))}  ratio ${ratio.toFixed(2)}x  request start spread p50 ${ms(p50(spreads))} (sent ${ms(p50(sentSpreads))})` +
      (pageCpu.length ? `  server CPU per load p50 ${ms(p50(pageCpu))} (the requests at once ${ms(p50(apiCpu))})` : ''));
  }
} finally {
  await browser.close();
  await srv.stop();
}
