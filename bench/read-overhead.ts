// What a report's consistent read costs per request: this tree's server and a baseline tree's (another commit,
// unpacked with `git archive <commit> | tar -x -C DIR` and its node_modules linked) side by side on the same small
// store, requests alternating between them so both see the same load of the shared machine.
// Usage: npx bun bench/read-overhead.ts --baseline DIR [--runs 600]
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { startServer } from '../test/helpers/server.ts';
import { setupAccount } from '../test/helpers/api.ts';
import { importAll } from '../test/helpers/import.ts';
import { percentile } from './http-timing.ts';

const { values } = parseArgs({ options: { baseline: { type: 'string' }, runs: { type: 'string', default: '600' } } });
if (!values.baseline) throw new Error('--baseline DIR: a checkout of the commit to compare with');
const runs = Number(values.runs);
const baseline = (await import(join(resolve(values.baseline), 'test/helpers/server.ts'))) as { startServer: typeof startServer };
const servers = { baseline: await baseline.startServer(), current: await startServer() };
const now = Date.now();
// 3,000 pageviews: 300 in the last 15 minutes (the realtime report's), the rest over three weeks.
const lines = Array.from({ length: 3000 }, (_, i) => ({
  timestamp: new Date(now - (i < 300 ? i * 3000 : i * 600_000)).toISOString(), url: `https://example.com/p${i % 37}`, event_type: 'pageview',
  visitor_uid: `v${i % 500}`, ip: '198.51.100.3', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
}));
// Six sites with two credentials each per server: 12 × 600 requests a minute stay under the data rate limit.
const creds: Record<string, { url: string; base: string; cred: string }[]> = {};
for (const [name, srv] of Object.entries(servers)) {
  creds[name] = [];
  for (let a = 0; a < 6; a++) {
    const acct = await setupAccount(srv.url, { scopes: ['analytics:read'] });
    await importAll(srv.url, acct, lines);
    const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
    creds[name]!.push({ url: srv.url, base, cred: acct.key }, { url: srv.url, base, cred: acct.token });
  }
}
const paths = { realtime: '/analytics/realtime', stats: '/analytics/stats?period=30d', pages: '/analytics/pages?period=30d' };
try {
  for (const [label, path] of Object.entries(paths)) {
    const t: Record<string, number[]> = { baseline: [], current: [] };
    // The first 100 pairs warm both servers up (JIT) and are not counted.
    for (let i = 0; i < runs + 100; i++) {
      for (const name of i % 2 ? ['baseline', 'current'] : ['current', 'baseline']) {
        const c = creds[name]![i % creds[name]!.length]!;
        const t0 = performance.now();
        const r = await fetch(c.url + c.base + path, { headers: { authorization: `Bearer ${c.cred}` } });
        await r.text();
        if (r.status !== 200) throw new Error(`${name} ${path}: ${r.status}`);
        if (i >= 100) t[name]!.push(performance.now() - t0);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const f = (n: number) => n.toFixed(2);
    console.log(`${label.padEnd(9)} p50 ${f(percentile(t.baseline!, 0.5))} → ${f(percentile(t.current!, 0.5))} ms  mean ${f(mean(t.baseline!))} → ${f(mean(t.current!))} ms  (${runs} each, baseline → current)`);
  }
} finally {
  for (const s of Object.values(servers)) await s.cleanup();
}
