// A migration may keep several import requests in flight (ingest/import-order.ts): the server reads one body while
// it loads another, and loads them in the order the requests arrived, so a history sent oldest first loads oldest
// first. An earlier request that fails does not hold the later ones back.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';
import { generateEvents } from '../../bench/generate.ts';

const fx = withServer();
const END = new Date('2026-06-01T00:00:00Z');
const events = [...generateEvents({ events: 6_000, seed: 5, days: 20, end: END })].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
const older = events.slice(0, 4_000);
const newer = events.slice(4_000);

type Acct = Awaited<ReturnType<typeof setupAccount>>;
const importUrl = (a: Acct) => `${fx.srv.url}/api/v1/organizations/${a.orgId}/sites/${a.site.id}/events/import`;
const encoder = new TextEncoder();

/** POSTs `lines` as a body that stops for `pauseMs` halfway (or fails there, with `fail`), as a slow upload does. */
function slowImport(a: Acct, lines: object[], pauseMs: number, fail = false) {
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const half = text.indexOf('\n', text.length >> 1) + 1;
  const body = new ReadableStream<Uint8Array>({
    async start(c) {
      c.enqueue(encoder.encode(text.slice(0, half)));
      await Bun.sleep(pauseMs);
      if (fail) return c.error(new Error('client went away'));
      c.enqueue(encoder.encode(text.slice(half)));
      c.close();
    },
  });
  return fetch(importUrl(a), { method: 'POST', headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/x-ndjson' }, body })
    .then(async (r) => ({ status: r.status, body: await r.json().catch(() => null), at: performance.now() }))
    .catch(() => ({ status: 0, body: null, at: performance.now() }));
}

const send = (a: Acct, lines: object[]) => fetch(importUrl(a), {
  method: 'POST', headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/x-ndjson' },
  body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
}).then(async (r) => ({ status: r.status, body: await r.json(), at: performance.now() }));

const REPORTS = ['stats', 'pages', 'sources', 'charts?interval=day', 'channels'];
const reports = (a: Acct) => Promise.all(REPORTS.map(async (path) => {
  const sep = path.includes('?') ? '&' : '?';
  const r = await a.api.get(`/api/v1/organizations/${a.orgId}/sites/${a.site.id}/analytics/${path}${sep}period=custom&from=2026-05-01&to=2026-06-01`, a.token);
  expect(r.status).toBe(200);
  return r.body.data;
}));

test('two requests in flight load in the order they arrived, with the reports of one request after the other', async () => {
  const a = await setupAccount(fx.srv.url);
  // The older half arrives first but its body takes a while; the newer half arrives whole meanwhile.
  const first = slowImport(a, older, 800);
  await Bun.sleep(100);
  const second = send(a, newer);
  const [r1, r2] = await Promise.all([first, second]);
  expect(r1.status).toBe(200);
  expect(r2.status).toBe(200);
  expect(r1.body.data.imported).toBe(older.length);
  expect(r2.body.data.imported).toBe(newer.length);
  // Loaded first, answered first: the newer half waited for the older one's load.
  expect(r1.at).toBeLessThan(r2.at);

  const b = await setupAccount(fx.srv.url);
  await importAll(fx.srv.url, b, older);
  await importAll(fx.srv.url, b, newer);
  expect(await reports(a)).toEqual(await reports(b));
}, 60_000);

test('an earlier request that fails lets the later ones load', async () => {
  const a = await setupAccount(fx.srv.url);
  const first = slowImport(a, older, 500, true);
  await Bun.sleep(100);
  const second = send(a, newer);
  const r2 = await second;
  expect(r2.status).toBe(200);
  expect(r2.body.data.imported).toBe(newer.length);
  expect((await first).status).not.toBe(200);
  // Nothing of the failed request was stored, all of the later one was.
  const [stats] = await reports(a);
  expect(stats.metrics.pageviews).toBe(newer.filter((e) => (e.event_type ?? 'pageview') === 'pageview').length);
}, 60_000);
