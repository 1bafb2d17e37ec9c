// Goal reports over HTTP: stats for all goals and one, daily points across DST, completions, edits changing what counts.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { importEvents, type FixtureEvent } from '../helpers/fixture-events.ts';

// Hand-counted fixture (site in UTC), 4 visitors on 2026-03-01 and one event on 03-02.
const events: FixtureEvent[] = [
  { uid: 'v1', at: '2026-03-01T10:00:00Z', path: '/blog/a' },
  { uid: 'v1', at: '2026-03-01T10:01:00Z', path: '/blog/a/b' },
  { uid: 'v1', at: '2026-03-01T10:02:00Z', name: 'Signup' },
  { uid: 'v2', at: '2026-03-01T11:00:00Z', path: '/blog' },
  { uid: 'v2', at: '2026-03-01T11:01:00Z', path: '/blog/b' },
  { uid: 'v3', at: '2026-03-01T12:00:00Z', type: 'purchase', revenue: 20, currency: 'USD', path: '/checkout' },
  { uid: 'v3', at: '2026-03-02T09:00:00Z', name: 'Signup', revenue: 3, currency: 'USD' },
  { uid: 'v4', at: '2026-03-01T13:00:00Z', path: '/about' },
];
const RANGE = 'period=custom&from=2026-03-01&to=2026-03-02';

let base: string;
const ids: Record<string, string> = {};
const fx = withServer({ accounts: { acct: { scopes: ['goals:read', 'goals:write'] } } });
beforeAll(async () => {
  base = `/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}/goals`;
  await importEvents(fx.srv.url, fx.acct, events);
  for (const [k, body] of Object.entries({
    one: { name: 'Blog post', type: 'pageview', path: '/blog/*' },
    any: { name: 'Blog anything', type: 'pageview', path: '/blog/**' },
    signup: { name: 'Signup', type: 'event', event_name: 'Signup', value: 5 },
    purchase: { name: 'Purchase', type: 'event', event_name: 'purchase' },
    old: { name: 'Old', type: 'pageview', path: '/about' },
  })) ids[k] = (await fx.acct.api.post(base, body, fx.acct.key)).body.data.id;
  await fx.acct.api.post(`${base}/${ids.old}/archive`, undefined, fx.acct.key);
});

test('stats for all goals: wildcards, event names, value adds to revenue, archived left out', async () => {
  const res = await fx.acct.api.get(`${base}/stats?${RANGE}`, fx.acct.key);
  expect(res.status).toBe(200);
  expect(res.body.data.range).toEqual({ from: '2026-03-01', to: '2026-03-02', timezone: 'UTC' });
  expect(res.body.data.goals).toEqual([
    // '/blog/*': /blog/a and /blog/b; not /blog (no segment) nor /blog/a/b (two segments)
    { id: ids.one, name: 'Blog post', visitors: 2, completions: 2, conversion_rate: 50, revenue: 0 },
    // '/blog/**': /blog/a, /blog/a/b, /blog/b
    { id: ids.any, name: 'Blog anything', visitors: 2, completions: 3, conversion_rate: 50, revenue: 0 },
    // two Signups, one carrying 3 of revenue, plus value 5 per completion
    { id: ids.signup, name: 'Signup', visitors: 2, completions: 2, conversion_rate: 50, revenue: 13 },
    // a purchase event sent without a name matches the goal named after its type
    { id: ids.purchase, name: 'Purchase', visitors: 1, completions: 1, conversion_rate: 25, revenue: 20 },
  ]);
  const withArchived = await fx.acct.api.get(`${base}/stats?${RANGE}&include_archived=true`, fx.acct.key);
  expect(withArchived.body.data.goals.find((g: any) => g.id === ids.old)).toMatchObject({ visitors: 1, completions: 1, conversion_rate: 25 });
});

test('one goal: metrics and a point per day, empty days zero', async () => {
  const res = await fx.acct.api.get(`${base}/${ids.signup}/stats?${RANGE}`, fx.acct.key);
  expect(res.status).toBe(200);
  expect(res.body.data.goal).toMatchObject({ id: ids.signup, name: 'Signup', value: 5 });
  expect(res.body.data.interval).toBe('day');
  expect(res.body.data.metrics).toEqual({ visitors: 2, completions: 2, conversion_rate: 50, revenue: 13 });
  expect(res.body.data.points).toEqual([
    { date: '2026-03-01', visitors: 1, completions: 1, revenue: 5 },
    { date: '2026-03-02', visitors: 1, completions: 1, revenue: 8 },
  ]);
  const hourly = await fx.acct.api.get(`${base}/${ids.signup}/stats?period=day&date=2026-03-01`, fx.acct.key);
  expect(hourly.body.data.interval).toBe('hour');
  expect(hourly.body.data.points).toHaveLength(24);
  expect(hourly.body.data.points[10]).toEqual({ date: '2026-03-01 10:00:00', visitors: 1, completions: 1, revenue: 5 });
  expect(hourly.body.data.metrics.completions).toBe(1);
  const empty = await fx.acct.api.get(`${base}/${ids.signup}/stats?period=day&date=2026-02-01`, fx.acct.key);
  expect(empty.body.data.metrics).toEqual({ visitors: 0, completions: 0, conversion_rate: 0, revenue: 0 });
  expect((await fx.acct.api.get(`${base}/${ids.signup}/stats?period=custom&from=2026-03-02&to=2026-03-01`, fx.acct.key)).status).toBe(400);
});

test('completions newest first, paginated, all time by default', async () => {
  const all = await fx.acct.api.get(`${base}/${ids.signup}/completions`, fx.acct.key);
  expect(all.status).toBe(200);
  expect(all.body.data.pagination).toEqual({ total: 2, page: 1, limit: 50 });
  expect(all.body.data.completions.map((c: any) => [c.timestamp, c.event_name, c.revenue])).toEqual([
    ['2026-03-02T09:00:00.000Z', 'Signup', 8],
    ['2026-03-01T10:02:00.000Z', 'Signup', 5],
  ]);
  expect(all.body.data.completions[0].visitor_id).toMatch(/^[0-9a-f-]{36}$/);
  const second = await fx.acct.api.get(`${base}/${ids.signup}/completions?page=2&limit=1`, fx.acct.key);
  expect(second.body.data.completions.map((c: any) => c.timestamp)).toEqual(['2026-03-01T10:02:00.000Z']);
  expect(second.body.data.pagination).toEqual({ total: 2, page: 2, limit: 1 });
  const beyond = await fx.acct.api.get(`${base}/${ids.signup}/completions?page=5&limit=1`, fx.acct.key);
  expect(beyond.body.data).toEqual({ completions: [], pagination: { total: 2, page: 5, limit: 1 } });
  const day1 = await fx.acct.api.get(`${base}/${ids.any}/completions?period=day&date=2026-03-01`, fx.acct.key);
  expect(day1.body.data.completions.map((c: any) => c.page)).toEqual(['/blog/b', '/blog/a/b', '/blog/a']);
  for (const q of ['limit=101', 'limit=0', 'page=0', 'page=-1', 'limit=abc']) {
    expect((await fx.acct.api.get(`${base}/${ids.signup}/completions?${q}`, fx.acct.key)).status).toBe(400);
  }
  expect((await fx.acct.api.get(`${base}/${ids.signup}/completions?limit=100`, fx.acct.key)).status).toBe(200);
});

test('updating a goal changes what counts', async () => {
  const g = (await fx.acct.api.post(base, { name: 'Tmp', type: 'pageview', path: '/blog' }, fx.acct.key)).body.data;
  const stat = async () => (await fx.acct.api.get(`${base}/${g.id}/stats?${RANGE}`, fx.acct.key)).body.data.metrics.completions;
  expect(await stat()).toBe(1);
  await fx.acct.api.patch(`${base}/${g.id}`, { path: '/blog**' }, fx.acct.key);
  expect(await stat()).toBe(4);
});

test('points follow the site time zone across a DST change', async () => {
  const berlin = await setupAccount(fx.srv.url, { scopes: ['goals:read', 'goals:write'], timezone: 'Europe/Berlin' });
  const gbase = `/api/v1/organizations/${berlin.orgId}/sites/${berlin.site.id}/goals`;
  await importEvents(fx.srv.url, berlin, [
    { uid: 'b1', at: '2026-03-28T23:30:00Z', name: 'Signup' }, // 03-29 00:30 CET
    { uid: 'b2', at: '2026-03-29T01:30:00Z', name: 'Signup' }, // 03-29 03:30 CEST (02:00 was skipped)
    { uid: 'b3', at: '2026-03-29T21:30:00Z', name: 'Signup' }, // 03-29 23:30 CEST
    { uid: 'b4', at: '2026-03-29T22:30:00Z', name: 'Signup' }, // 03-30 00:30 CEST
  ]);
  const g = (await berlin.api.post(gbase, { name: 'Signup', type: 'event', event_name: 'Signup' }, berlin.key)).body.data;
  const days = await berlin.api.get(`${gbase}/${g.id}/stats?period=custom&from=2026-03-28&to=2026-03-30`, berlin.key);
  expect(days.body.data.points.map((p: any) => [p.date, p.completions])).toEqual([['2026-03-28', 0], ['2026-03-29', 3], ['2026-03-30', 1]]);
  const hours = await berlin.api.get(`${gbase}/${g.id}/stats?period=day&date=2026-03-29`, berlin.key);
  expect(hours.body.data.points).toHaveLength(23);
  expect(hours.body.data.points.filter((p: any) => p.completions).map((p: any) => p.date)).toEqual(['2026-03-29 00:00:00', '2026-03-29 03:00:00', '2026-03-29 23:00:00']);
});
