// Charts from the first-occurrence marks equal the exact distinct counts (the same chart with a filter every event
// passes) for month, week and day buckets: visitors returning within a month, across months, across a DST change,
// before a range that starts mid-month, and on the range's first and last days (a month bucket counts a visit when
// its visitor's previous visit began before the bucket, or before the range where that starts later).
import { beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client } from '../helpers/api.ts';
import { importLines } from '../helpers/import.ts';

const fx = withServer({ accounts: { a: { timezone: 'Europe/Berlin' } }, timeout: 60_000 });
const NO_OP = encodeURIComponent(JSON.stringify([{ dimension: 'hostname', operator: 'is', value: 'example.com' }]));
const line = (ts: string, uid: string, path = '/') => ({ url: `https://example.com${path}`, timestamp: ts, visitor_uid: uid });

beforeAll(async () => {
  const r = await importLines(fx.srv.url, fx.a, [
    // a: January, twice in February (one visit each), then April.
    line('2026-01-10T10:00:00Z', 'a'), line('2026-02-03T10:00:00Z', 'a'), line('2026-02-20T10:00:00Z', 'a', '/b'), line('2026-04-02T10:00:00Z', 'a'),
    // b: the last evening of March in Berlin (after the clocks moved), then the first of April, then the 15th.
    line('2026-03-31T21:30:00Z', 'b'), line('2026-03-31T22:30:00Z', 'b', '/b'), line('2026-04-15T08:00:00Z', 'b'),
    // c: a month's first and last local instants, and the next month's first.
    line('2026-02-28T22:59:00Z', 'c'), line('2026-02-28T23:00:00Z', 'c'), line('2026-03-01T00:10:00Z', 'c', '/b'),
    // d: once, mid-March; e: early March and late March (a range from the 10th starts after the first).
    line('2026-03-15T12:00:00Z', 'd'), line('2026-03-02T09:00:00Z', 'e'), line('2026-03-28T09:00:00Z', 'e'),
    // f: October across the change back to winter time, and November.
    line('2026-10-24T12:00:00Z', 'f'), line('2026-10-26T12:00:00Z', 'f'), line('2026-11-02T12:00:00Z', 'f'),
  ]);
  expect(r.status).toBe(200);
}, 60_000);

const RANGES = [['2026-01-01', '2026-12-31'], ['2026-02-15', '2026-04-20'], ['2026-03-10', '2026-03-31'], ['2026-03-01', '2026-04-01'],
  ['2026-03-31', '2026-04-30'], ['2026-10-20', '2026-11-10'], ['2026-02-20', '2026-02-20']];

test('chart visitors per month, week and day from the marks equal the exact counts', async () => {
  const api = client(fx.srv.url);
  const seen: number[] = [];
  for (const [from, to] of RANGES) {
    for (const interval of ['month', 'week', 'day']) {
      const url = `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/analytics/charts?period=custom&from=${from}&to=${to}&interval=${interval}`;
      const [marked, exact] = await Promise.all([api.get(url, fx.a.token), api.get(`${url}&filters=${NO_OP}`, fx.a.token)]);
      expect(marked.status).toBe(200);
      const points = (r: any) => r.body.data.points.map((p: any) => [p.date, p.visitors, p.visits]);
      expect({ from, to, interval, points: points(marked) }).toEqual({ from, to, interval, points: points(exact) });
      if (interval === 'month') seen.push(...marked.body.data.points.map((p: any) => p.visitors));
    }
  }
  // Not a trivial fixture: months where a visitor returns count that visitor once.
  const year = await api.get(`/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/analytics/charts?period=custom&from=2026-01-01&to=2026-12-31&interval=month`, fx.a.token);
  expect(year.body.data.points.slice(0, 4).map((p: any) => [p.date, p.visitors, p.visits])).toEqual([
    ['2026-01-01', 1, 1], ['2026-02-01', 2, 3], ['2026-03-01', 4, 5], ['2026-04-01', 2, 3],
  ]);
  expect(seen.length).toBeGreaterThan(10);
}, 120_000);
