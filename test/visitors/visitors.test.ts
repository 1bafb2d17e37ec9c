// The visitors API over HTTP: list and identify, search, pagination, the timeline, 404s and the visitors:read scope.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { importEvents, type FixtureEvent } from '../helpers/fixture-events.ts';

// ada: two visits (3 pageviews, a purchase of 30, a Signup); grace: one pageview; alan: one pageview (archived goal);
// ghost: identified only, never seen. Goals: '/signup/*', event Signup, and an archived '/about'.
const events: FixtureEvent[] = [
  { uid: 'uid-ada', at: '2026-03-01T10:00:00Z', path: '/pricing' },
  { uid: 'uid-ada', at: '2026-03-01T10:01:00Z', path: '/signup/pro' },
  { uid: 'uid-ada', at: '2026-03-03T09:00:00Z', path: '/home', referrer: 'https://news.ycombinator.com/item?id=1' },
  { uid: 'uid-ada', at: '2026-03-03T09:01:00Z', type: 'purchase', path: '/checkout', revenue: 30, currency: 'USD', props: { plan: 'pro' } },
  { uid: 'uid-ada', at: '2026-03-03T09:02:00Z', name: 'Signup', path: '/welcome' },
  { uid: 'uid-grace', at: '2026-03-02T08:00:00Z', path: '/blog/x' },
  { uid: 'uid-alan', at: '2026-03-04T12:00:00Z', path: '/about' },
];

let base: string;
const identify = (body: object) => fx.acct.api.post('/api/v1/identify', { site_id: fx.acct.site.public_id, ...body });

const fx = withServer({ accounts: { acct: { scopes: ['visitors:read', 'goals:write'] } } });
beforeAll(async () => {
  base = `/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}`;
  await importEvents(fx.srv.url, fx.acct, events);
  await fx.acct.api.post(`${base}/goals`, { name: 'Signup page', type: 'pageview', path: '/signup/*' }, fx.acct.key);
  await fx.acct.api.post(`${base}/goals`, { name: 'Signup', type: 'event', event_name: 'Signup' }, fx.acct.key);
  const about = await fx.acct.api.post(`${base}/goals`, { name: 'About', type: 'pageview', path: '/about' }, fx.acct.key);
  await fx.acct.api.post(`${base}/goals/${about.body.data.id}/archive`, undefined, fx.acct.key);
  for (const body of [
    { visitor_uid: 'uid-ada', user_id: 'ext-42', name: 'Ada Lovelace', email: 'Ada@Example.com', avatar: 'https://example.com/ada.png' },
    { visitor_uid: 'uid-grace', user_id: 'cust-7', email: 'grace@navy.mil' },
    { visitor_uid: 'uid-ghost', user_id: 'ghost-1' },
  ]) expect((await identify(body)).status).toBe(202);
});

const list = async (q = '') => {
  const res = await fx.acct.api.get(`${base}/visitors${q}`, fx.acct.key);
  expect(res.status).toBe(200);
  return res.body.data;
};
const uids = (d: any) => d.visitors.map((v: any) => v.uid);

test('list: most recently seen first, lifetime totals after identify, identity fields only when set', async () => {
  const d = await list();
  expect(uids(d)).toEqual(['uid-alan', 'uid-ada', 'uid-grace', 'uid-ghost']);
  expect(d.pagination).toEqual({ total: 4, page: 1, limit: 50 });
  const ada = d.visitors[1];
  expect(ada).toMatchObject({
    uid: 'uid-ada',
    email: 'Ada@Example.com',
    name: 'Ada Lovelace',
    avatar_url: 'https://example.com/ada.png',
    external_id: 'ext-42',
    first_seen_at: '2026-03-01T10:00:00.000Z',
    last_seen_at: '2026-03-03T09:02:00.000Z',
    total_sessions: 2,
    total_pageviews: 3,
    total_goals: 2, // /signup/pro and the Signup event
    total_revenue: 30,
    last_browser: 'Chrome',
    last_os: 'macOS',
    last_device: 'desktop',
  });
  expect(ada.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  for (const k of ['last_country', 'last_referrer_source']) expect(ada).toHaveProperty(k);
  const alan = d.visitors[0];
  expect(alan.total_goals).toBe(0); // its only goal is archived
  expect(alan).not.toHaveProperty('email');
  expect(alan).not.toHaveProperty('external_id');
  expect(d.visitors[3]).toMatchObject({ uid: 'uid-ghost', external_id: 'ghost-1', total_sessions: 0, total_pageviews: 0, total_goals: 0, last_seen_at: null });
});

test('a later identify overwrites only the fields it carries; totals stay', async () => {
  expect((await identify({ visitor_uid: 'uid-grace', user_id: 'cust-7', name: 'Grace Hopper' })).status).toBe(202);
  const grace = (await list('?search=grace')).visitors[0];
  expect(grace).toMatchObject({ name: 'Grace Hopper', email: 'grace@navy.mil', external_id: 'cust-7', total_sessions: 1, total_pageviews: 1 });
});

test('search: case-insensitive part of email, name, uid or external id', async () => {
  expect(uids(await list('?search=ADA'))).toEqual(['uid-ada']);
  expect(uids(await list('?search=example.COM'))).toEqual(['uid-ada']);
  expect(uids(await list('?search=love'))).toEqual(['uid-ada']);
  expect(uids(await list('?search=CUST-'))).toEqual(['uid-grace']);
  expect(uids(await list('?search=navy'))).toEqual(['uid-grace']);
  expect(uids(await list('?search=id-al'))).toEqual(['uid-alan']);
  expect(uids(await list('?search=%25'))).toEqual([]); // '%' is literal, not a wildcard
  const none = await list('?search=zzz');
  expect(none).toEqual({ visitors: [], pagination: { total: 0, page: 1, limit: 50 } });
});

test('pagination bounds', async () => {
  const p1 = await list('?limit=2');
  expect(uids(p1)).toEqual(['uid-alan', 'uid-ada']);
  expect(p1.pagination).toEqual({ total: 4, page: 1, limit: 2 });
  expect(uids(await list('?limit=2&page=2'))).toEqual(['uid-grace', 'uid-ghost']);
  expect(await list('?limit=2&page=3')).toEqual({ visitors: [], pagination: { total: 4, page: 3, limit: 2 } });
  expect((await list('?limit=100')).visitors).toHaveLength(4);
  expect((await list('?limit=1')).visitors).toHaveLength(1);
  for (const q of ['limit=101', 'limit=0', 'page=0', 'page=-1', 'page=1.5', 'limit=ten']) {
    const res = await fx.acct.api.get(`${base}/visitors?${q}`, fx.acct.key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/page|limit/);
  }
});

test('timeline: profile plus events newest first, paginated', async () => {
  const ada = (await list('?search=ada')).visitors[0];
  const res = await fx.acct.api.get(`${base}/visitors/${ada.id}/timeline`, fx.acct.key);
  expect(res.status).toBe(200);
  const d = res.body.data;
  expect(d.visitor).toEqual(ada);
  expect(d.pagination).toEqual({ total: 5, page: 1, limit: 50 });
  expect(d.events.map((e: any) => [e.timestamp, e.event_type, e.path])).toEqual([
    ['2026-03-03T09:02:00.000Z', 'custom', '/welcome'],
    ['2026-03-03T09:01:00.000Z', 'purchase', '/checkout'],
    ['2026-03-03T09:00:00.000Z', 'pageview', '/home'],
    ['2026-03-01T10:01:00.000Z', 'pageview', '/signup/pro'],
    ['2026-03-01T10:00:00.000Z', 'pageview', '/pricing'],
  ]);
  expect(d.events[0].event_name).toBe('Signup');
  expect(d.events[1]).toMatchObject({ revenue: 30, currency: 'USD', properties: { plan: 'pro' }, url: 'https://example.com/checkout', browser: 'Chrome' });
  expect(d.events[2].referrer).toBe('https://news.ycombinator.com/item?id=1');
  for (const k of ['title', 'session_id', 'country', 'os', 'device']) expect(d.events[0]).toHaveProperty(k);
  const page2 = (await fx.acct.api.get(`${base}/visitors/${ada.id}/timeline?limit=2&page=2`, fx.acct.key)).body.data;
  expect(page2.events.map((e: any) => e.path)).toEqual(['/home', '/signup/pro']);
  expect(page2.pagination).toEqual({ total: 5, page: 2, limit: 2 });
  expect((await fx.acct.api.get(`${base}/visitors/${ada.id}/timeline?limit=101`, fx.acct.key)).status).toBe(400);
  expect((await fx.acct.api.get(`${base}/visitors/${ada.id}/timeline?page=0`, fx.acct.key)).status).toBe(400);
});

test('unknown or foreign visitor → 404; every route needs visitors:read', async () => {
  const ada = (await list('?search=ada')).visitors[0];
  const notFound = { status: 404, body: { error: 'Visitor not found' } };
  expect(await fx.acct.api.get(`${base}/visitors/${crypto.randomUUID()}/timeline`, fx.acct.key)).toMatchObject(notFound);
  expect(await fx.acct.api.get(`${base}/visitors/not-a-uuid/timeline`, fx.acct.key)).toMatchObject(notFound);
  expect(await fx.acct.api.get(`${base}/visitors/${crypto.randomUUID()}/timeline?limit=101`, fx.acct.key)).toMatchObject(notFound);
  const other = await fx.acct.api.post(`/api/v1/organizations/${fx.acct.orgId}/sites`, { domain: 'other.example' }, fx.acct.token);
  expect(await fx.acct.api.get(`/api/v1/organizations/${fx.acct.orgId}/sites/${other.body.data.id}/visitors/${ada.id}/timeline`, fx.acct.key)).toMatchObject(notFound);
  const key = (await fx.acct.api.post(`/api/v1/organizations/${fx.acct.orgId}/api-keys`, { name: 'g', scopes: ['goals:read', 'analytics:read'] }, fx.acct.token)).body.data.key;
  const missing = { status: 403, body: { error: 'API key missing required scope: visitors:read' } };
  expect(await fx.acct.api.get(`${base}/visitors`, key)).toMatchObject(missing);
  expect(await fx.acct.api.get(`${base}/visitors/${ada.id}/timeline`, key)).toMatchObject(missing);
  expect((await fx.acct.api.get(`${base}/visitors`, fx.acct.token)).status).toBe(200);
});
