// Goal path patterns over HTTP: * is one path segment, ** one or more, everything else (_ and % too) literal.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { importEvents } from '../helpers/fixture-events.ts';

// One visitor per path, so a goal's `visitors` is the number of paths it matches.
const PATHS = ['/docs', '/docs/a', '/docs/a/b', '/docs/a/b/c', '/docs/a/x', '/docs/z/x', '/docs/a/b/x', '/a_b', '/aXb', '/50%', '/500', '/shop/item/', '/shop/item'];

const fx = withServer({ accounts: { acct: { scopes: ['goals:read', 'goals:write'] } } });
beforeAll(async () => {
  await importEvents(fx.srv.url, fx.acct, PATHS.map((path, i) => ({ uid: `p${i}`, at: `2026-03-01T10:${String(i).padStart(2, '0')}:00Z`, path })));
});

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
  const base = `/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}/goals`;
  const goal = (await fx.acct.api.post(base, { name: path, type: 'pageview', path }, fx.acct.key)).body.data;
  const completions = await fx.acct.api.get(`${base}/${goal.id}/completions?limit=100`, fx.acct.key);
  expect(completions.body.data.completions.map((c: any) => c.page).sort()).toEqual([...expected].sort());
  const stats = await fx.acct.api.get(`${base}/${goal.id}/stats?period=day&date=2026-03-01`, fx.acct.key);
  expect(stats.body.data.metrics.visitors).toBe(expected.length);
});
