// Every breakdown endpoint and dimension, pagination, country labels, page engagement, and revenue.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadFixture, WEEK, type Fixture } from './setup.ts';
import type { Line } from './fixture.ts';
import { importAll } from '../helpers/import.ts';
import { setupAccount } from '../helpers/api.ts';

let f: Fixture;
beforeAll(async () => { f = await loadFixture(); });
afterAll(async () => { await f.srv.cleanup(); });

const row = (name: string, visitors: number, visits: number, pageviews: number, bounce_rate: number, visit_duration: number, percentage: number) =>
  ({ name, visitors, visits, pageviews, bounce_rate, visit_duration, percentage });
const names = (d: any) => d.results.map((r: any) => [r.name, r.visitors, r.visits]);

describe('pages', () => {
  test('page (default): visitors, visits, pageviews; bounce and duration of entries; time on page and scroll of the page left', async () => {
    const d = await f.data('pages', WEEK);
    expect(d.range).toEqual({ from: '2025-10-20', to: '2025-10-26', timezone: 'Europe/Berlin' });
    expect(d.dimension).toBe('page');
    expect(d.results).toEqual([
      { ...row('/', 3, 3, 3, 33, 1100, 75), time_on_page: 180, scroll_depth: 65 },
      { ...row('/pricing', 3, 3, 3, 100, 0, 75), time_on_page: null, scroll_depth: null },
      { ...row('/blog/post-1', 2, 2, 2, 100, 0, 50), time_on_page: null, scroll_depth: null },
      { ...row('/blog/post-2', 1, 1, 1, 0, 180, 25), time_on_page: 40, scroll_depth: 90 },
      { ...row('/checkout', 1, 1, 0, 0, 0, 25), time_on_page: null, scroll_depth: null },
    ]);
    expect(d.pagination).toEqual({ total: 5, page: 1, limit: 10 });
  });

  test('entry_page, exit_page and hostname', async () => {
    const entry = await f.data('pages', { ...WEEK, dimension: 'entry_page' });
    expect(entry.results).toEqual([
      { ...row('/', 3, 3, 5, 33, 1100, 75), time_on_page: 180, scroll_depth: 65 },
      { ...row('/blog/post-2', 1, 1, 2, 0, 180, 25), time_on_page: 40, scroll_depth: 90 },
      { ...row('/blog/post-1', 1, 1, 1, 100, 0, 25), time_on_page: null, scroll_depth: null },
      { ...row('/pricing', 1, 1, 1, 100, 0, 25), time_on_page: null, scroll_depth: null },
    ]);
    const exit = await f.data('pages', { ...WEEK, dimension: 'exit_page' });
    expect(names(exit)).toEqual([['/pricing', 3, 3], ['/blog/post-1', 2, 2], ['/', 1, 1]]);
    const host = await f.data('pages', { ...WEEK, dimension: 'hostname' });
    expect(host.results).toEqual([{ ...row('example.com', 4, 6, 9, 50, 580, 100), time_on_page: 133, scroll_depth: 73 }]);
  });

  test('limit and page paginate; a page past the end is empty with the same total', async () => {
    const p2 = await f.data('pages', { ...WEEK, limit: 2, page: 2 });
    expect(p2.results.map((r: any) => r.name)).toEqual(['/blog/post-1', '/blog/post-2']);
    expect(p2.pagination).toEqual({ total: 5, page: 2, limit: 2 });
    const past = await f.data('pages', { ...WEEK, limit: 2, page: 9 });
    expect(past.results).toEqual([]);
    expect(past.pagination).toEqual({ total: 5, page: 9, limit: 2 });
  });

  test.each([
    [{ limit: 0 }], [{ limit: 1001 }], [{ limit: 'ten' }], [{ page: 0 }], [{ page: -1 }], [{ dimension: 'country' }],
  ])('%p → 400', async (params) => {
    const r = await f.get('pages', { ...WEEK, ...params });
    expect(r.status).toBe(400);
    expect(typeof r.body.error).toBe('string');
  });
});

describe('ranking many groups', () => {
  test('exact order and pagination when only the groups that can reach the top are counted exactly', async () => {
    const acc = await setupAccount(f.srv.url, { scopes: ['analytics:read'] });
    const lines: Line[] = [];
    let n = 0;
    const view = (uid: string, path: string) => lines.push({ timestamp: new Date(Date.UTC(2025, 5, 1, 10, 0, n++)).toISOString(), visitor_uid: uid, url: `https://example.com${path}` });
    for (const uid of ['a', 'b', 'c']) view(uid, '/hot1'), view(uid, '/hot2'), view(uid, '/hot3');
    view('a', '/hot2');
    for (let i = 0; i < 40; i++) view('spammer', '/spam');
    for (let i = 0; i < 26; i++) view(`single${i}`, `/single/${String(i).padStart(2, '0')}`);
    await importAll(f.srv.url, acc, lines);
    const get = async (limit: number, page: number) => {
      const r = await acc.api.get(`/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}/analytics/pages?period=day&date=2025-06-01&limit=${limit}&page=${page}`, acc.key);
      expect(r.status).toBe(200);
      return r.body.data;
    };
    const all = await get(1000, 1);
    expect(all.pagination.total).toBe(30);
    expect(all.results.slice(0, 5).map((r: any) => [r.name, r.visitors, r.pageviews])).toEqual([
      ['/hot2', 3, 4], ['/hot1', 3, 3], ['/hot3', 3, 3], ['/spam', 1, 40], ['/single/00', 1, 1],
    ]);
    for (const [limit, page] of [[3, 1], [2, 2], [2, 3], [7, 4], [1, 30]]) {
      const d = await get(limit!, page!);
      expect(d.results).toEqual(all.results.slice((page! - 1) * limit!, page! * limit!));
      expect(d.pagination).toEqual({ total: 30, page, limit });
    }
  });
});

describe('sources and channels', () => {
  test('source: a missing source is "Direct / None"; ties ordered by pageviews then name', async () => {
    const d = await f.data('sources', WEEK);
    expect(d.dimension).toBe('source');
    expect(d.results).toEqual([
      row('Direct / None', 3, 3, 4, 67, 60, 75),
      row('Google', 1, 1, 2, 0, 600, 25),
      row('newsletter', 1, 1, 2, 0, 2700, 25),
      row('Twitter', 1, 1, 1, 100, 0, 25),
    ]);
  });

  test('referrer and utm_* dimensions; a missing value is "(none)"', async () => {
    expect(names(await f.data('sources', { ...WEEK, dimension: 'referrer' }))).toEqual([
      ['(none)', 4, 4], ['https://www.google.com/', 1, 1], ['https://twitter.com/somebody', 1, 1],
    ]);
    expect(names(await f.data('sources', { ...WEEK, dimension: 'utm_source' }))).toEqual([['(none)', 3, 5], ['newsletter', 1, 1]]);
    expect(names(await f.data('sources', { ...WEEK, dimension: 'utm_medium' }))).toEqual([['(none)', 3, 5], ['email', 1, 1]]);
    expect(names(await f.data('sources', { ...WEEK, dimension: 'utm_campaign' }))).toEqual([['(none)', 3, 5], ['autumn', 1, 1]]);
    expect(names(await f.data('sources', { ...WEEK, dimension: 'utm_term' }))).toEqual([['(none)', 4, 6]]);
    expect(names(await f.data('sources', { ...WEEK, dimension: 'utm_content' }))).toEqual([['(none)', 4, 6]]);
  });

  test('channels', async () => {
    const d = await f.data('channels', WEEK);
    expect(d.dimension).toBe('channel');
    expect(d.results).toEqual([
      row('Direct', 3, 3, 4, 67, 60, 75),
      row('Email', 1, 1, 2, 0, 2700, 25),
      row('Organic Search', 1, 1, 2, 0, 600, 25),
      row('Organic Social', 1, 1, 1, 100, 0, 25),
    ]);
  });
});

describe('devices and locations', () => {
  test('device (default), browser, browser_version, os, os_version, screen', async () => {
    expect((await f.data('devices', WEEK)).results).toEqual([row('desktop', 3, 5, 7, 60, 156, 75), row('mobile', 1, 1, 2, 0, 2700, 25)]);
    expect((await f.data('devices', { ...WEEK, dimension: 'browser' })).results).toEqual([
      row('Chrome', 2, 3, 5, 33, 260, 50), row('Firefox', 1, 2, 2, 100, 0, 25), row('Safari', 1, 1, 2, 0, 2700, 25),
    ]);
    expect(names(await f.data('devices', { ...WEEK, dimension: 'browser_version' }))).toEqual([['124.0', 2, 3], ['125.0', 1, 2], ['17.4', 1, 1]]);
    expect(names(await f.data('devices', { ...WEEK, dimension: 'os' }))).toEqual([['Windows', 2, 3], ['Linux', 1, 2], ['iOS', 1, 1]]);
    expect(names(await f.data('devices', { ...WEEK, dimension: 'os_version' }))).toEqual([['10', 2, 3], ['17.4', 1, 1], ['(none)', 1, 2]]);
    expect(names(await f.data('devices', { ...WEEK, dimension: 'screen' }))).toEqual([['(none)', 4, 6]]);
  });

  test('country (default) with its English name as label; region; city', async () => {
    const d = await f.data('locations', WEEK);
    expect(d.results).toEqual([
      { ...row('US', 3, 5, 7, 60, 156, 75), label: 'United States' },
      { ...row('GB', 1, 1, 2, 0, 2700, 25), label: 'United Kingdom' },
    ]);
    const region = await f.data('locations', { ...WEEK, dimension: 'region' });
    expect(region.results.find((r: any) => r.name === 'England')).toEqual(row('England', 1, 1, 2, 0, 2700, 25));
    expect(region.results[0].label).toBeUndefined();
    const city = await f.data('locations', { ...WEEK, dimension: 'city' });
    expect(city.results.find((r: any) => r.name === 'London')).toEqual(row('London', 1, 1, 2, 0, 2700, 25));
  });
});

describe('revenue', () => {
  test('site currency totals, duplicate order ids once, other currencies apart, zero-filled points', async () => {
    const d = await f.data('revenue', { period: 'custom', from: '2025-10-20', to: '2025-10-27' });
    expect(d.currency).toBe('EUR');
    // O1 (50 EUR) twice → once; O3 30 EUR; O2 is USD. Purchasers B and D among visitors A, B, C, D.
    expect(d.metrics).toEqual({ revenue: 80, orders: 2, average_order_value: 40, purchasers: 2, conversion_rate: 50 });
    expect(d.by_currency).toEqual([{ currency: 'EUR', revenue: 80, orders: 2 }, { currency: 'USD', revenue: 20, orders: 1 }]);
    expect(d.interval).toBe('day');
    expect(d.points).toHaveLength(8);
    expect(d.points[0]).toEqual({ date: '2025-10-20', revenue: 30, orders: 1 });
    expect(d.points[1]).toEqual({ date: '2025-10-21', revenue: 0, orders: 0 });
    // B1's purchase at 23:10 UTC on the 26th is 00:10 on the 27th in Berlin.
    expect(d.points[7]).toEqual({ date: '2025-10-27', revenue: 50, orders: 1 });
    expect(d.previous).toEqual({ revenue: 0, orders: 0, average_order_value: 0, purchasers: 0, conversion_rate: 0 });
    expect(d.change).toEqual({ revenue: null, orders: null, average_order_value: null, purchasers: null, conversion_rate: null });
  });

  test('an order id seen before the range never counts again; change against the previous period', async () => {
    const later = await f.data('revenue', { period: 'day', date: '2025-10-28' });
    expect(later.metrics).toEqual({ revenue: 0, orders: 0, average_order_value: 0, purchasers: 0, conversion_rate: 0 });
    expect(later.by_currency).toEqual([]);
    const day27 = await f.data('revenue', { period: 'day', date: '2025-10-27' });
    expect(day27.metrics.revenue).toBe(50);
    expect(day27.interval).toBe('hour');
    const d = await f.data('revenue', { period: 'custom', from: '2025-10-27', to: '2025-10-27', compare: 'previous_period' });
    expect(d.previous.revenue).toBe(0);
  });

  test('filters apply to orders and to the visitors of the conversion rate', async () => {
    const gb = await f.data('revenue', { period: 'custom', from: '2025-10-20', to: '2025-10-27', filters: [{ dimension: 'country', operator: 'is', value: 'GB' }] });
    expect(gb.metrics).toEqual({ revenue: 50, orders: 1, average_order_value: 50, purchasers: 1, conversion_rate: 100 });
  });
});
