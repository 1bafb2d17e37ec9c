// The same server under Deno 2: an export streams in every format, and a visitor erasure answers its counts.
import { afterAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { fixtureLines, importFixture } from '../helpers/site-data.ts';

let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); });

test('export and erasure under Deno', async () => {
  srv = await startServer({ runtime: 'deno' });
  const acct = await setupAccount(srv.url, { scopes: ['analytics:read', 'visitors:read'] });
  const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
  const lines = fixtureLines({ visitors: 5, months: 2, eventsPerVisit: 3 });
  await importFixture(acct.api, acct.token, acct.orgId, acct.site.id, lines);
  const nd = await fetch(`${srv.url}${base}/export?table=events&format=ndjson`, { headers: { authorization: `Bearer ${acct.key}` } });
  expect(nd.status).toBe(200);
  expect((await nd.text()).trim().split('\n')).toHaveLength(lines.length);
  for (const f of ['parquet', 'csv']) {
    const r = await fetch(`${srv.url}${base}/export?table=visits&format=${f}`, { headers: { authorization: `Bearer ${acct.key}` } });
    expect(r.status).toBe(200);
    expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(100);
  }
  const v = (await acct.api.get(`${base}/visitors?search=u1`, acct.key)).body.data.visitors[0];
  const del = await acct.api.del(`${base}/visitors/${v.id}`, acct.token);
  expect(del.body.data).toEqual({ id: v.id, events_deleted: 6, visits_deleted: 2 });
}, 60_000);
