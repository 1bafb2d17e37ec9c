import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { importEvents } from '../helpers/fixture-events.ts';

// One visitor per path, so a goal's `visitors` is the number of paths it matches.
const PATHS = ['/docs', '/docs/a', '/docs/a/b', '/docs/a/b/c', '/docs/a/x', '/docs/z/x', '/docs/a/b/x', '/a_b', '/aXb', '/50%', '/500', '/shop/item/', '/shop/item'];

let srv: TestServer;
let acct: Awaited<ReturnType<typeof setupAccount>>;
beforeAll(async () => {
  srv = await startServer();
  acct = await setupAccount(srv.url, { scopes: ['goals:read', 'goals:write'] });
  await importEvents(srv.url, acct, PATHS.map((path, i) => ({ uid: `p${i}`, at: `2026-03-01T10:${String(i).padStart(2, '0')}:00Z`, path })));
});
afterAll(async () => { await srv.cleanup(); });

const cases: [string, string[]][] = [
  ['/docs', ['/docs']],
  ['/docs/*', ['/docs/a']],
  ['/docs/**', ['/docs/a', '/docs/a/b', '/docs/a/b/c', '/docs/a/x', '/docs/z/x', '/docs/a/b/x']],
  ['/docs/*/x', ['/docs/a/x', '/docs/z/x']],
  ['/docs/**/x', ['/docs/a/x', '/docs/z/x', '/docs/a/b/x']],
  ['/docs/**/b/*', ['/docs/a/b/c', '/docs/a/b/x']],
  ['/a_b', ['/a_b']], // '_' is literal, not a LIKE wildcard
  ['/50%', ['/50%']],
  ['/shop/*/', ['/shop/item/']],
  ['/shop/*', ['/shop/item']],
  ['/**', PATHS],
];

test.each(cases)('goal path %p matches exactly its paths', async (path, expected) => {
  const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/goals`;
  const goal = (await acct.api.post(base, { name: path, type: 'pageview', path }, acct.key)).body.data;
  const completions = await acct.api.get(`${base}/${goal.id}/completions?limit=100`, acct.key);
  expect(completions.body.data.completions.map((c: any) => c.page).sort()).toEqual([...expected].sort());
  const stats = await acct.api.get(`${base}/${goal.id}/stats?period=day&date=2026-03-01`, acct.key);
  expect(stats.body.data.metrics.visitors).toBe(expected.length);
});
