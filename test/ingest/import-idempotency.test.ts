// An import sent with an Idempotency-Key (or import_id) is imported once: a retry answers the first result,
// a concurrent duplicate is refused with 409, and the key survives a restart.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';

const fx = withServer();

const body = (n: number, uid = 'u') => Array.from({ length: n }, (_, i) => JSON.stringify({
  url: `https://example.com/p${i}`, timestamp: `2026-02-01T10:${String(i % 60).padStart(2, '0')}:00Z`, visitor_uid: uid,
})).join('\n') + '\nnot json\n';

async function post(acct: Awaited<ReturnType<typeof setupAccount>>, payload: BodyInit, opts: { key?: string; query?: string } = {}) {
  const r = await fetch(`${fx.srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import${opts.query ?? ''}`, {
    method: 'POST', headers: { authorization: `Bearer ${acct.token}`, ...(opts.key ? { 'idempotency-key': opts.key } : {}) }, body: payload,
  });
  return { status: r.status, replayed: r.headers.get('idempotent-replayed'), body: JSON.parse(await r.text()) };
}

const pageviews = async (acct: Awaited<ReturnType<typeof setupAccount>>) =>
  (await client(fx.srv.url).get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/stats?period=day&date=2026-02-01`, acct.token)).body.data.metrics.pageviews;

test('a retried request answers its first result and imports nothing again', async () => {
  const acct = await setupAccount(fx.srv.url);
  const first = await post(acct, body(5), { key: 'batch-0001' });
  expect(first).toEqual({ status: 200, replayed: null, body: { success: true, data: { imported: 5, rejected: 1, errors: [{ line: 6, error: 'Malformed line: expected valid JSON' }] } } });
  const again = await post(acct, body(5), { key: 'batch-0001' });
  expect(again).toEqual({ ...first, replayed: 'true' });
  // The query parameter is the same key.
  expect((await post(acct, body(5), { query: '?import_id=batch-0001' })).replayed).toBe('true');
  expect(await pageviews(acct)).toBe(5);
  // Another key imports; keys are per site.
  expect((await post(acct, body(3, 'w'), { key: 'batch-0002' })).body.data.imported).toBe(3);
  const other = await setupAccount(fx.srv.url);
  expect((await post(other, body(2), { key: 'batch-0001' })).body.data.imported).toBe(2);
  expect(await pageviews(acct)).toBe(8);

  // After a restart the answer is still there.
  await fx.srv.stop();
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  expect((await post(acct, body(5), { key: 'batch-0001' })).replayed).toBe('true');
  expect(await pageviews(acct)).toBe(8);
}, 60_000);

test('concurrent duplicates: one imports, the other gets 409; a request that failed can be retried', async () => {
  const acct = await setupAccount(fx.srv.url);
  const [a, b] = await Promise.all([post(acct, body(2000), { key: 'same' }), post(acct, body(2000), { key: 'same' })]);
  expect([a.status, b.status].sort()).toEqual([200, 409]);
  expect([a, b].find((r) => r.status === 409)!.body.error).toMatch(/still running/);
  expect(await pageviews(acct)).toBe(2000);

  // A body that is not gzip after gzip's magic bytes fails (400) and stores nothing: the same key then imports.
  const broken = await post(acct, new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9]), { key: 'k2' });
  expect(broken.status).toBe(400);
  expect((await post(acct, body(1, 'z'), { key: 'k2' })).body.data.imported).toBe(1);
}, 60_000);

test('bad keys and formats are 400s', async () => {
  const acct = await setupAccount(fx.srv.url);
  expect((await post(acct, body(1), { key: 'has space' })).status).toBe(400);
  expect((await post(acct, body(1), { key: 'a', query: '?import_id=b' })).body.error).toMatch(/differ/);
  const bad = await post(acct, body(1), { query: '?format=csv' });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatch(/Unknown import format 'csv'/);
});
