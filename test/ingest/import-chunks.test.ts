// An import's lines are staged in chunks while the body is parsed (ingest/import.ts): a body of many chunks loads
// every accepted line once and reports each rejected line by its number; a body that fails part-way (corrupt gzip,
// a client that goes away) imports nothing and leaves no staging file behind, and the same events sent again
// afterwards are stored exactly once.
import { expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { importLines } from '../helpers/import.ts';
import { generateEvents } from '../../bench/generate.ts';

const fx = withServer();
const END = new Date('2026-06-01T00:00:00Z');
/** ~25,000 events: about 8 MiB of staged lines, four chunks or more. */
const events = [...generateEvents({ events: 25_000, seed: 21, days: 30, end: END })];
const lines = events.map((e) => JSON.stringify(e));

type Acct = Awaited<ReturnType<typeof setupAccount>>;
const importUrl = (a: Acct) => `${fx.srv.url}/api/v1/organizations/${a.orgId}/sites/${a.site.id}/events/import`;
const stats = async (a: Acct) => {
  const r = await a.api.get(`/api/v1/organizations/${a.orgId}/sites/${a.site.id}/analytics/stats?period=custom&from=2026-04-01&to=2026-06-01`, a.token);
  expect(r.status).toBe(200);
  return r.body.data.metrics;
};
const stagingLeft = () => readdirSync(join(fx.srv.dataDir, 'import'));

test('a body of many chunks: every accepted line stored once, each rejected line named by its number', async () => {
  const a = await setupAccount(fx.srv.url);
  const body: string[] = [...lines];
  // Bad lines late in the body, long after the first chunks went to DuckDB.
  const bad = [12_001, 20_002, 25_003];
  for (const n of bad) body.splice(n - 1, 0, n === 20_002 ? '{"url": "https://example.com/", "timestamp": "yesterday"}' : '{not json');
  const r = await importLines(fx.srv.url, a, body, { newlineAtEnd: true });
  expect(r.status).toBe(200);
  expect(r.body.data.imported).toBe(events.length);
  expect(r.body.data.rejected).toBe(3);
  expect(r.body.data.errors.map((e: { line: number }) => e.line)).toEqual(bad);
  expect(r.body.data.errors[1].error).toContain("'timestamp'");
  expect((await stats(a)).pageviews).toBe(events.filter((e) => (e.event_type ?? 'pageview') === 'pageview').length);
  expect(stagingLeft()).toEqual([]);
}, 120_000);

test('a gzip body that breaks part-way imports nothing; sent again whole, it is stored once', async () => {
  const a = await setupAccount(fx.srv.url);
  const whole = gzipSync(lines.join('\n') + '\n');
  // Cut near the end: several chunks were parsed and handed to DuckDB before the stream fails.
  const r = await fetch(importUrl(a), {
    method: 'POST', headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/x-ndjson' },
    body: Buffer.concat([whole.subarray(0, Math.floor(whole.length * 0.9)), Buffer.from('garbage, not deflate')]),
  });
  expect(r.status).toBe(400);
  expect((await r.json()).error).toContain('gzip');
  expect((await stats(a)).visits).toBe(0);
  expect(stagingLeft()).toEqual([]);

  const ok = await fetch(importUrl(a), { method: 'POST', headers: { authorization: `Bearer ${a.token}` }, body: whole });
  expect(ok.status).toBe(200);
  expect(JSON.parse(await ok.text()).data.imported).toBe(events.length);
  const ref = await setupAccount(fx.srv.url);
  expect((await importLines(fx.srv.url, ref, lines, { newlineAtEnd: true })).status).toBe(200);
  expect(await stats(a)).toEqual(await stats(ref));
}, 120_000);

test('a client that goes away mid-body imports nothing', async () => {
  const a = await setupAccount(fx.srv.url);
  const enc = new TextEncoder();
  let sent = 0;
  const ctl = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (sent >= 20_000) {
        // Let the server parse (and stage) what it has, then drop the connection.
        await Bun.sleep(500);
        ctl.abort();
        return c.error(new Error('client gone'));
      }
      c.enqueue(enc.encode(lines.slice(sent, sent + 2000).join('\n') + '\n'));
      sent += 2000;
    },
  });
  await fetch(importUrl(a), {
    method: 'POST', headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/x-ndjson' }, body, duplex: 'half', signal: ctl.signal,
  } as RequestInit).catch(() => undefined);
  // The server notices the broken body, drops the import and its staging; nothing shows in reports.
  for (let i = 0; i < 50 && stagingLeft().length; i++) await Bun.sleep(100);
  await Bun.sleep(500);
  expect(stagingLeft()).toEqual([]);
  expect((await stats(a)).visits).toBe(0);
}, 120_000);
