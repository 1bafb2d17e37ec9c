// A fatal DuckDB error invalidates the whole instance; the server reopens it, so one failing statement never
// leaves it answering 500 to everything after. The instance is invalidated for real: the TERN_TEST_HOOKS
// signal arms DuckDB's own checkpoint-abort fault, so that the next commit fails FATAL.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCOPES = ['analytics:read', 'sites:read', 'annotations:read', 'annotations:write', 'visitors:read'];

let srv: TestServer;
let a: Awaited<ReturnType<typeof setupAccount>>;

beforeAll(async () => {
  srv = await startServer({ env: { TERN_TEST_HOOKS: 'true' } });
  a = await setupAccount(srv.url, { scopes: SCOPES });
});
afterAll(async () => { await srv.cleanup(); });

const site = () => `/api/v1/organizations/${a.orgId}/sites/${a.site.id}`;

async function pageview(path: string) {
  const r = await fetch(`${srv.url}/api/v1/event`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify({ site_id: a.site.public_id, url: `https://example.com${path}`, visitor_uid: 'reopen-visitor' }),
  });
  expect(r.status).toBe(202);
}
const pageviews = async () => (await a.api.get(`${site()}/analytics/stats?period=day`, a.key)).body.data.metrics.pageviews as number;
async function waitFor(what: () => Promise<boolean> | boolean, label: string) {
  for (let i = 0; i < 200; i++) {
    if (await what()) return;
    await Bun.sleep(50);
  }
  throw new Error(`timed out waiting for ${label}\n${srv.logs()}`);
}

test('after the instance is invalidated, it is reopened: committed data kept, every later request answered', async () => {
  expect((await a.api.post(`${site()}/annotations`, { date: '2026-01-01', text: 'before' }, a.key)).status).toBe(201);
  await pageview('/one');
  await waitFor(async () => (await pageviews()) === 1, 'the first pageview');

  srv.proc.kill('SIGUSR2');
  await waitFor(() => srv.logs().includes('test hook: checkpoint fault armed'), 'the hook');
  // The next commit, this one or a background write's, fails FATAL and invalidates the instance.
  const tripping = await a.api.post(`${site()}/annotations`, { date: '2026-01-02', text: 'tripping' }, a.key);
  expect([201, 500]).toContain(tripping.status);
  await waitFor(() => srv.logs().includes('"msg":"database reopened"'), 'the reopen');
  expect(srv.logs()).toContain('database invalidated by a fatal DuckDB error');

  // Everything answers again, concurrently: reads, writes, a visitor timeline.
  const visitors = (await a.api.get(`${site()}/visitors`, a.key)).body.data.visitors;
  expect(visitors.length).toBe(1);
  const calls = await Promise.all([
    ...Array.from({ length: 10 }, () => a.api.get(`${site()}/annotations`, a.key)),
    ...Array.from({ length: 5 }, () => a.api.get(`${site()}/analytics/stats?period=day`, a.key)),
    ...Array.from({ length: 5 }, () => a.api.get(`${site()}/visitors/${visitors[0].id}/timeline`, a.key)),
    ...Array.from({ length: 5 }, (_, i) => a.api.post(`${site()}/annotations`, { date: '2026-01-03', text: `after ${i}` }, a.key)),
    a.api.get(`/api/v1/organizations/${a.orgId}/api-keys`, a.token),
  ]);
  for (const r of calls) expect(r.status).toBeLessThan(300);

  // Committed work survived the reopen.
  const texts = (await a.api.get(`${site()}/annotations`, a.key)).body.data.annotations.map((n: any) => n.text);
  expect(texts).toContain('before');
  // The tripping statement itself may fail (its commit's checkpoint aborted): kept only if it answered 201.
  if (tripping.status === 201) expect(texts).toContain('tripping');
  expect(texts.filter((t: string) => t.startsWith('after ')).length).toBe(5);

  // Ingestion goes on: a new event loads into the reopened database.
  await pageview('/two');
  await waitFor(async () => (await pageviews()) === 2, 'the second pageview');
  expect(srv.logs().match(/database invalidated by a fatal DuckDB error/g)?.length).toBe(1);
  expect(await srv.stop()).toBe(0);
}, 60_000);
