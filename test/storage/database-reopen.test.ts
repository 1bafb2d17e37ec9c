// A fatal DuckDB error invalidates the whole instance; the server reopens it, so one failing statement never
// leaves it answering 500 to everything after. The instance is invalidated for real: the TERN_TEST_HOOKS
// signal arms DuckDB's own checkpoint-abort fault, so that the next commit fails FATAL.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCOPES = ['analytics:read', 'sites:read', 'annotations:read', 'annotations:write', 'visitors:read'];

const fx = withServer({ server: { env: { TERN_TEST_HOOKS: 'true' } }, accounts: { a: { scopes: SCOPES } } });

const site = () => `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}`;

async function pageview(path: string) {
  const r = await fetch(`${fx.srv.url}/api/v1/event`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify({ site_id: fx.a.site.public_id, url: `https://example.com${path}`, visitor_uid: 'reopen-visitor' }),
  });
  expect(r.status).toBe(202);
}
const pageviews = async () => (await fx.a.api.get(`${site()}/analytics/stats?period=day`, fx.a.key)).body.data.metrics.pageviews as number;
async function waitFor(what: () => Promise<boolean> | boolean, label: string) {
  for (let i = 0; i < 200; i++) {
    if (await what()) return;
    await Bun.sleep(50);
  }
  throw new Error(`timed out waiting for ${label}\n${fx.srv.logs()}`);
}

test('after the instance is invalidated, it is reopened: committed data kept, every later request answered', async () => {
  expect((await fx.a.api.post(`${site()}/annotations`, { date: '2026-01-01', text: 'before' }, fx.a.key)).status).toBe(201);
  await pageview('/one');
  await waitFor(async () => (await pageviews()) === 1, 'the first pageview');

  fx.srv.proc.kill('SIGUSR2');
  await waitFor(() => fx.srv.logs().includes('test hook: checkpoint fault armed'), 'the hook');
  // The next commit, this one or a background write's, fails FATAL and invalidates the instance.
  const tripping = await fx.a.api.post(`${site()}/annotations`, { date: '2026-01-02', text: 'tripping' }, fx.a.key);
  expect([201, 500]).toContain(tripping.status);
  await waitFor(() => fx.srv.logs().includes('"msg":"database reopened"'), 'the reopen');
  expect(fx.srv.logs()).toContain('database invalidated by a fatal DuckDB error');

  // Everything answers again, concurrently: reads, writes, a visitor timeline.
  const visitors = (await fx.a.api.get(`${site()}/visitors`, fx.a.key)).body.data.visitors;
  expect(visitors.length).toBe(1);
  const calls = await Promise.all([
    ...Array.from({ length: 10 }, () => fx.a.api.get(`${site()}/annotations`, fx.a.key)),
    ...Array.from({ length: 5 }, () => fx.a.api.get(`${site()}/analytics/stats?period=day`, fx.a.key)),
    ...Array.from({ length: 5 }, () => fx.a.api.get(`${site()}/visitors/${visitors[0].id}/timeline`, fx.a.key)),
    ...Array.from({ length: 5 }, (_, i) => fx.a.api.post(`${site()}/annotations`, { date: '2026-01-03', text: `after ${i}` }, fx.a.key)),
    fx.a.api.get(`/api/v1/organizations/${fx.a.orgId}/api-keys`, fx.a.token),
  ]);
  for (const r of calls) expect(r.status).toBeLessThan(300);

  // Committed work survived the reopen.
  const texts = (await fx.a.api.get(`${site()}/annotations`, fx.a.key)).body.data.annotations.map((n: any) => n.text);
  expect(texts).toContain('before');
  // The tripping statement itself may fail (its commit's checkpoint aborted): kept only if it answered 201.
  if (tripping.status === 201) expect(texts).toContain('tripping');
  expect(texts.filter((t: string) => t.startsWith('after ')).length).toBe(5);

  // Ingestion goes on: a new event loads into the reopened database.
  await pageview('/two');
  await waitFor(async () => (await pageviews()) === 2, 'the second pageview');
  expect(fx.srv.logs().match(/database invalidated by a fatal DuckDB error/g)?.length).toBe(1);
  expect(await fx.srv.stop()).toBe(0);
}, 60_000);
