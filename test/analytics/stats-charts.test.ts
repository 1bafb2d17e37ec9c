// Stats, charts and realtime over the hand-countable fixture: every metric, every period, comparisons, DST.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadFixture, WEEK, type Fixture } from './setup.ts';
import { importAll } from '../helpers/import.ts';
import { setupAccount } from '../helpers/api.ts';
import { todayIn } from '../../src/query/parse/calendar.ts';

let f: Fixture;
beforeAll(async () => { f = await loadFixture(); });
afterAll(async () => { await f.srv.cleanup(); });

const ZERO = { visitors: 0, visits: 0, pageviews: 0, views_per_visit: 0, bounce_rate: 0, visit_duration: 0, events: 0 };
const NO_CHANGE = { visitors: null, visits: null, pageviews: null, views_per_visit: null, bounce_rate: null, visit_duration: null, events: null };

describe('stats', () => {
  test('7d: every metric, the previous 7 days and the percent change', async () => {
    expect(await f.data('stats', WEEK)).toEqual({
      range: { from: '2025-10-20', to: '2025-10-26', timezone: 'Europe/Berlin' },
      metrics: { visitors: 4, visits: 6, pageviews: 9, views_per_visit: 1.5, bounce_rate: 50, visit_duration: 580, events: 12 },
      previous: { visitors: 1, visits: 1, pageviews: 2, views_per_visit: 2, bounce_rate: 0, visit_duration: 60, events: 2 },
      change: { visitors: 300, visits: 500, pageviews: 350, views_per_visit: -25, bounce_rate: null, visit_duration: 866.7, events: 500 },
    });
  });

  test('day: the 25-hour DST day in Berlin, not the UTC day; a visit belongs to the day it starts', async () => {
    const d = await f.data('stats', { period: 'day', date: '2025-10-26' });
    expect(d.range).toEqual({ from: '2025-10-26', to: '2025-10-26', timezone: 'Europe/Berlin' });
    // C1 starts 00:30 CEST (22:30 UTC the day before); B1's purchases fall after local midnight.
    expect(d.metrics).toEqual({ visitors: 3, visits: 4, pageviews: 6, views_per_visit: 1.5, bounce_rate: 50, visit_duration: 825, events: 7 });
    expect(d.previous).toEqual({ visitors: 1, visits: 1, pageviews: 1, views_per_visit: 1, bounce_rate: 100, visit_duration: 0, events: 1 });
    const next = await f.data('stats', { period: 'day', date: '2025-10-27' });
    expect(next.metrics).toEqual({ ...ZERO, events: 2 });
  });

  test('month and 12mo: calendar months; month compares with the previous month', async () => {
    const month = { visitors: 5, visits: 8, pageviews: 11, views_per_visit: 1.38, bounce_rate: 38, visit_duration: 443, events: 17 };
    const m = await f.data('stats', { period: 'month', date: '2025-10-26' });
    expect(m.range).toEqual({ from: '2025-10-01', to: '2025-10-31', timezone: 'Europe/Berlin' });
    expect(m.metrics).toEqual(month);
    expect(m.previous).toEqual(ZERO);
    expect(m.change).toEqual(NO_CHANGE);
    const y = await f.data('stats', { period: '12mo', date: '2025-10-05' });
    expect(y.range).toEqual({ from: '2024-11-01', to: '2025-10-31', timezone: 'Europe/Berlin' });
    expect(y.metrics).toEqual(month);
  });

  test('custom (inclusive dates) equals the same 7 days; 30d; all starts at the first visit', async () => {
    const c = await f.data('stats', { period: 'custom', from: '2025-10-20', to: '2025-10-26' });
    expect(c.metrics).toEqual((await f.data('stats', WEEK)).metrics);
    const d30 = await f.data('stats', { period: '30d', date: '2025-10-31' });
    expect(d30.range).toEqual({ from: '2025-10-02', to: '2025-10-31', timezone: 'Europe/Berlin' });
    expect(d30.metrics.visits).toBe(8);
    const all = await f.data('stats', { period: 'all' });
    expect(all.range).toEqual({ from: '2025-10-15', to: todayIn('Europe/Berlin'), timezone: 'Europe/Berlin' });
    expect(all.metrics.events).toBe(17);
  });

  test('all on a site without visits runs from its creation day; everything is zero', async () => {
    const acc = await setupAccount(f.srv.url, { scopes: ['analytics:read'] });
    const r = await acc.api.get(`/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}/analytics/stats?period=all`, acc.key);
    expect(r.status).toBe(200);
    expect(r.body.data.range.from).toBe(todayIn('UTC'));
    expect(r.body.data.metrics).toEqual(ZERO);
  });

  test('the default period is 30d ending today', async () => {
    const d = await f.data('stats');
    expect(d.range.to).toBe(todayIn('Europe/Berlin'));
  });

  test('compare=year_over_year looks a year back; compare=none gives null', async () => {
    const yoy = await f.data('stats', { ...WEEK, compare: 'year_over_year' });
    expect(yoy.previous).toEqual(ZERO);
    expect(yoy.change).toEqual(NO_CHANGE);
    const none = await f.data('stats', { ...WEEK, compare: 'none' });
    expect(none.previous).toBeNull();
    expect(none.change).toEqual(NO_CHANGE);
  });

  test.each([
    [{ period: 'week' }, /period/],
    [{ date: '2025-02-30' }, /date/],
    [{ date: '26.10.2025' }, /date/],
    [{ period: 'custom', from: '2025-10-01' }, /requires both from and to/],
    [{ period: 'custom', from: '2025-10-02', to: '2025-10-01' }, /from \(2025-10-02\) is after to/],
    [{ compare: 'last_week' }, /compare/],
  ])('%p → 400', async (params, message) => {
    const r = await f.get('stats', params);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});

describe('charts', () => {
  const empty = { visitors: 0, visits: 0, pageviews: 0, bounce_rate: 0, visit_duration: 0 };

  test('7d: one zero-filled point per day, annotations in range beside the points', async () => {
    const inRange = await f.acc.api.post(`${f.sitePath}/annotations`, { date: '2025-10-22', text: 'Launch' }, f.acc.token);
    expect(inRange.status).toBe(201);
    await f.acc.api.post(`${f.sitePath}/annotations`, { date: '2025-11-05', text: 'Later' }, f.acc.token);
    const d = await f.data('charts', WEEK);
    expect(d.interval).toBe('day');
    expect(d.points.map((p: any) => p.date)).toEqual(['2025-10-20', '2025-10-21', '2025-10-22', '2025-10-23', '2025-10-24', '2025-10-25', '2025-10-26']);
    expect(d.points[0]).toEqual({ date: '2025-10-20', visitors: 1, visits: 1, pageviews: 2, bounce_rate: 0, visit_duration: 180 });
    expect(d.points[1]).toEqual({ date: '2025-10-21', ...empty });
    expect(d.points[5]).toEqual({ date: '2025-10-25', visitors: 1, visits: 1, pageviews: 1, bounce_rate: 100, visit_duration: 0 });
    expect(d.points[6]).toEqual({ date: '2025-10-26', visitors: 3, visits: 4, pageviews: 6, bounce_rate: 50, visit_duration: 825 });
    expect(d.annotations).toEqual([{ id: inRange.body.data.id, date: '2025-10-22', text: 'Launch' }]);
  });

  test('day: hourly in local time; the repeated 02:00 of the fall-back day is one bucket (24 points)', async () => {
    const d = await f.data('charts', { period: 'day', date: '2025-10-26' });
    expect(d.interval).toBe('hour');
    expect(d.points).toHaveLength(24);
    expect(d.points[0]).toEqual({ date: '2025-10-26 00:00:00', visitors: 1, visits: 1, pageviews: 1, bounce_rate: 100, visit_duration: 0 });
    expect(d.points[9]).toEqual({ date: '2025-10-26 09:00:00', visitors: 1, visits: 1, pageviews: 2, bounce_rate: 0, visit_duration: 600 });
    expect(d.points[10]).toEqual({ date: '2025-10-26 10:00:00', visitors: 1, visits: 1, pageviews: 1, bounce_rate: 100, visit_duration: 0 });
    expect(d.points[23]).toEqual({ date: '2025-10-26 23:00:00', visitors: 1, visits: 1, pageviews: 2, bounce_rate: 0, visit_duration: 2700 });
    expect(d.points.reduce((s: number, p: any) => s + p.visits, 0)).toBe(4);
  });

  test('the spring-forward day has 23 hourly buckets and no 02:00', async () => {
    const d = await f.data('charts', { period: 'day', date: '2025-03-30' });
    expect(d.points).toHaveLength(23);
    expect(d.points.map((p: any) => p.date)).not.toContain('2025-03-30 02:00:00');
  });

  test('12mo defaults to months; week buckets start on Mondays', async () => {
    const y = await f.data('charts', { period: '12mo', date: '2025-10-26' });
    expect(y.interval).toBe('month');
    expect(y.points.map((p: any) => p.date)).toEqual([
      '2024-11-01', '2024-12-01', '2025-01-01', '2025-02-01', '2025-03-01', '2025-04-01',
      '2025-05-01', '2025-06-01', '2025-07-01', '2025-08-01', '2025-09-01', '2025-10-01',
    ]);
    expect(y.points[11]).toEqual({ date: '2025-10-01', visitors: 5, visits: 8, pageviews: 11, bounce_rate: 38, visit_duration: 443 });
    const w = await f.data('charts', { period: 'month', date: '2025-10-26', interval: 'week' });
    expect(w.points.map((p: any) => [p.date, p.visits])).toEqual([
      ['2025-09-29', 0], ['2025-10-06', 0], ['2025-10-13', 1], ['2025-10-20', 6], ['2025-10-27', 1],
    ]);
  });

  test('a range over 180 days defaults to months; too many hourly buckets → 400', async () => {
    const long = await f.data('charts', { period: 'custom', from: '2025-01-01', to: '2025-10-31' });
    expect(long.interval).toBe('month');
    const r = await f.get('charts', { period: '12mo', interval: 'hour' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/interval/);
    expect((await f.get('charts', { interval: 'minute' })).status).toBe(400);
  });
});

describe('realtime', () => {
  test('counts the last 30 minutes only', async () => {
    const acc = await setupAccount(f.srv.url, { scopes: ['analytics:read'] });
    const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    const line = (min: number, uid: string, path: string) => ({ timestamp: ago(min), visitor_uid: uid, url: `https://example.com${path}` });
    await importAll(f.srv.url, acc, [
      line(45, 'old', '/gone'), line(5, 'x', '/live'), line(4, 'x', '/live/2'), line(3, 'y', '/live'),
    ]);
    const r = await acc.api.get(`/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}/analytics/realtime`, acc.key);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ visitors: 2, pageviews: 3, pages: [{ name: '/live', visitors: 2 }, { name: '/live/2', visitors: 1 }] });
  });
});

describe('access', () => {
  test('no credential 401, missing scope 403, another organization 404', async () => {
    const path = `${f.sitePath}/analytics/stats`;
    expect((await f.acc.api.get(path)).status).toBe(401);
    const other = await setupAccount(f.srv.url, { scopes: ['sites:read'] });
    const own = await other.api.get(`/api/v1/organizations/${other.orgId}/sites/${other.site.id}/analytics/stats`, other.key);
    expect(own).toMatchObject({ status: 403, body: { error: 'API key missing required scope: analytics:read' } });
    expect((await other.api.get(path, other.token)).status).toBe(404);
    expect((await f.acc.api.get(path, f.acc.token)).status).toBe(200);
  });
});
