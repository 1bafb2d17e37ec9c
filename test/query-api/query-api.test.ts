// POST /query over real HTTP on the hand-countable fixture (Berlin; 2025-10-26 leaves summer time): metrics,
// dimensions alone and in pairs, nested filters, has_done, time buckets, ordering, paging, totals, comparison.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadQueryFixture, OCTOBER, type QueryFixture } from './setup.ts';
import { VISIT_DIMENSIONS } from '../../src/query/parse/query-body.ts';

let f: QueryFixture;
beforeAll(async () => { f = await loadQueryFixture(); });
afterAll(async () => { await f.srv.cleanup(); });

const EVENT_DIMS = ['event:page', 'event:hostname', 'event:name', 'event:type', 'event:props:plan'];
const ALL_DIMS = [...VISIT_DIMENSIONS.map((d) => `visit:${d}`), ...EVENT_DIMS, 'event:goal', 'time:hour', 'time:day', 'time:week', 'time:month'];
const sum = (rows: any[], i: number) => rows.reduce((a, r) => a + r.metrics[i], 0);

describe('metrics', () => {
  test('without dimensions: the 8 visits of 5 visitors, 11 pageviews, 17 events, bounces and durations', async () => {
    const d = await f.qdata({ metrics: ['visitors', 'visits', 'pageviews', 'events', 'views_per_visit', 'bounce_rate', 'visit_duration'] });
    // Bounces C2, C1, A2 of 8 visits = 37.5 %; durations 60 + 180 + 600 + 2700 = 3540 s over 8 visits = 442.5 s.
    expect(d.results).toEqual([{ dimensions: [], metrics: [5, 8, 11, 17, 1.38, 38, 443] }]);
    expect(d.meta).toEqual({ range: { from: '2025-10-01', to: '2025-10-31', timezone: 'Europe/Berlin' }, total_rows: 1 });
    expect(d.query).toMatchObject({ date_range: OCTOBER, dimensions: [], pagination: { limit: 10000, offset: 0 } });
  });

  test('revenue, orders and average order value: an order id once, the site currency only', async () => {
    // GB: O1 50 EUR (sent twice); US: O3 30 EUR (again on 10-28: not counted), O2 is USD.
    expect(await f.table({ metrics: ['revenue', 'orders', 'average_order_value'], dimensions: ['visit:country'] })).toEqual([['GB', 50, 1, 50], ['US', 30, 1, 30]]);
  });

  test('conversions and conversion rate per goal, and under a goal filter per country', async () => {
    // Signup: visitor a (1 of 5); Visit pricing: C1, A1, B1 pageviews by c, a, b (3 of 5).
    expect(await f.table({ metrics: ['visitors', 'conversions', 'conversion_rate'], dimensions: ['event:goal'] })).toEqual([['Visit pricing', 3, 3, 60], ['Signup', 1, 1, 20]]);
    // US visitors e, d, c, a: c and a viewed /pricing; GB: b.
    expect(await f.table({ metrics: ['visitors', 'conversions', 'conversion_rate'], dimensions: ['visit:country'], filters: [['is', 'event:goal', ['Visit pricing']]] }))
      .toEqual([['US', 2, 2, 50], ['GB', 1, 1, 100]]);
  });

  test('time on page and scroll depth of the page left; exit rate', async () => {
    const rows = await f.table({ metrics: ['pageviews', 'time_on_page', 'scroll_depth', 'exit_rate'], dimensions: ['event:page'], order_by: [['pageviews', 'desc']] });
    const by = Object.fromEntries(rows.map((r: any[]) => [r[0], r.slice(1)]));
    expect(by['/']).toEqual([4, 180, 65, 25]); // reports 300/80 (A1) and 60/50 (B1); C2 leaves on /
    expect(by['/blog/post-2']).toEqual([1, 40, 90, 0]);
    expect(by['/about']).toEqual([1, null, null, 100]);
  });

  test('percentage of all visitors, per source', async () => {
    expect(await f.table({ metrics: ['visitors', 'percentage'], dimensions: ['visit:source'], order_by: [['visitors', 'desc'], ['visit:source', 'asc']] }))
      .toEqual([['Direct / None', 4, 80], ['Google', 1, 20], ['Twitter', 1, 20], ['newsletter', 1, 20]]); // Direct: e, d, c, a
  });

  test('a custom property breakdown', async () => {
    expect(await f.table({ metrics: ['visitors', 'events'], dimensions: ['event:props:plan'] })).toEqual([['(none)', 5, 16], ['pro', 1, 1]]);
    // is_not "(none)" keeps the events that carry the key (what the dashboard's Properties panel asks).
    expect(await f.table({ metrics: ['visitors', 'events'], dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:plan', ['(none)']]] })).toEqual([['pro', 1, 1]]);
  });

  test('the property keys present in the range (event:props), alone and beside another dimension', async () => {
    // One event carries properties ({plan: pro}); an event without properties has no key row.
    expect(await f.table({ metrics: ['visitors', 'events', 'bounce_rate'], dimensions: ['event:props'] })).toEqual([['plan', 1, 1, expect.any(Number)]]);
    const byDay = await f.table({ metrics: ['events'], dimensions: ['event:props', 'time:day'] });
    expect(byDay.map((r: any[]) => [r[0], r[2]])).toEqual([['plan', 1]]);
  });
});

describe('dimensions', () => {
  test('every dimension alone: each visit and each event is counted in its rows exactly once', async () => {
    for (const dim of ALL_DIMS) {
      const d = await f.qdata({ metrics: ['visits', 'events', 'visitors'], dimensions: [dim] });
      expect(d.results.length).toBeGreaterThan(0);
      if (dim === 'event:goal') continue; // an event may complete several goals, most none
      expect([dim, sum(d.results, 1)]).toEqual([dim, 17]);
      if (dim.startsWith('visit:') || dim.startsWith('time:')) expect([dim, sum(d.results, 0)]).toEqual([dim, 8]);
    }
  });

  test('every dimension in pairs with a visit, an event and a time dimension: events add up', async () => {
    for (const dim of ALL_DIMS) {
      for (const other of ['visit:device', 'event:name', 'time:day']) {
        if (other === dim || (dim.startsWith('time:') && other.startsWith('time:'))) continue;
        const d = await f.qdata({ metrics: ['events', 'visitors'], dimensions: [dim, other] });
        for (const r of d.results) expect(r.dimensions.length).toBe(2);
        if (dim !== 'event:goal') expect([dim, other, sum(d.results, 0)]).toEqual([dim, other, 17]);
      }
    }
  });

  test('two dimensions: sources by country, hand-counted', async () => {
    expect(await f.table({ metrics: ['visitors', 'visits'], dimensions: ['visit:source', 'visit:country'], order_by: [['visit:source', 'asc'], ['visit:country', 'asc']] }))
      .toEqual([['Google', 'US', 1, 1], ['Twitter', 'US', 1, 1], ['newsletter', 'GB', 1, 1], ['Direct / None', 'US', 4, 5]]); // the missing value last
  });

  test('hours of the DST day: 24 buckets (the repeated hour is one), every one present with time_labels', async () => {
    const d = await f.qdata({ metrics: ['pageviews'], date_range: 'day', date: '2025-10-26', dimensions: ['time:hour'], include: { time_labels: true } });
    expect(d.meta.time_labels.length).toBe(24);
    expect(d.results.map((r: any) => r.dimensions[0])).toEqual(d.meta.time_labels);
    const busy = d.results.filter((r: any) => r.metrics[0] > 0).map((r: any) => [r.dimensions[0], r.metrics[0]]);
    // C1 00:30 CEST, A1 09:00 and 09:05 CET, A2 10:00, B1 23:30 and 23:50.
    expect(busy).toEqual([['2025-10-26 00:00:00', 1], ['2025-10-26 09:00:00', 2], ['2025-10-26 10:00:00', 1], ['2025-10-26 23:00:00', 2]]);
  });

  test('days and weeks in the site zone', async () => {
    const days = await f.qdata({ metrics: ['visits'], date_range: '7d', date: '2025-10-26', dimensions: ['time:day'], include: { time_labels: true } });
    expect(days.results.map((r: any) => [r.dimensions[0], r.metrics[0]])).toEqual([
      ['2025-10-20', 1], ['2025-10-21', 0], ['2025-10-22', 0], ['2025-10-23', 0], ['2025-10-24', 0], ['2025-10-25', 1], ['2025-10-26', 4],
    ]);
    const weeks = await f.table({ metrics: ['visits'], dimensions: ['time:week'] });
    expect(weeks).toEqual([['2025-10-13', 1], ['2025-10-20', 6], ['2025-10-27', 1]]);
  });
});

describe('filters', () => {
  test('or across levels, not over an event test, and both nested in and', async () => {
    const one = async (filters: unknown) => (await f.qdata({ metrics: ['visitors', 'visits'], filters })).results[0].metrics;
    expect(await one(['or', [['is', 'visit:country', ['GB']], ['is', 'event:page', ['/about']]]])).toEqual([2, 2]); // B1, E1
    expect(await one(['not', ['contains', 'event:page', ['/blog']]])).toEqual([5, 6]); // all but D1 and A2
    expect(await one(['and', [['is', 'visit:country', ['US']], ['not', ['contains', 'event:page', ['/blog']]]]])).toEqual([4, 5]);
    expect(await one([['matches', 'event:page', ['^/pri']], ['is_not', 'visit:source', ['Twitter']]])).toEqual([2, 2]); // A1, B1
  });

  test('has_done and has_not_done: the visitor did (or never did) a matching event in the range', async () => {
    expect(await f.table({ metrics: ['visits'], dimensions: ['visit:source'], filters: [['has_done', ['is', 'event:name', ['Signup']]]], order_by: [['visit:source', 'asc']] }))
      .toEqual([['Google', 1], ['Direct / None', 1]]); // A1, A2
    expect((await f.qdata({ metrics: ['visits'], filters: [['has_not_done', ['is', 'event:name', ['Signup']]]] })).results[0].metrics).toEqual([6]);
  });
});

describe('ordering, paging, totals, comparison', () => {
  test('order by a metric ascending, then the dimension; a page of it with the row count', async () => {
    const body = { metrics: ['pageviews'], dimensions: ['event:page'], order_by: [['pageviews', 'asc']] };
    const all = await f.table(body);
    expect(all).toEqual([['/checkout', 0], ['/about', 1], ['/blog/post-2', 1], ['/blog/post-1', 2], ['/pricing', 3], ['/', 4]]);
    const page = await f.qdata({ ...body, pagination: { limit: 2, offset: 1 } });
    expect(page.results.map((r: any) => [...r.dimensions, ...r.metrics])).toEqual(all.slice(1, 3));
    expect(page.meta.total_rows).toBe(6);
  });

  test('totals and the previous period, row for row', async () => {
    const d = await f.qdata({
      metrics: ['visitors', 'visits'], date_range: '7d', date: '2025-10-26', dimensions: ['time:day'],
      include: { totals: true, comparison: 'previous_period', time_labels: true },
    });
    expect(d.totals).toEqual({ visitors: 4, visits: 6 });
    expect(d.comparison.range).toEqual({ from: '2025-10-13', to: '2025-10-19', timezone: 'Europe/Berlin' });
    expect(d.comparison.totals).toEqual({ visitors: 1, visits: 1 });
    expect(d.comparison.results.length).toBe(7);
    // 10-22 (none) against 10-15 (E1): −100 %; 10-20 (D1) against 10-13 (none): no change to tell.
    expect(d.comparison.results[2]).toEqual({ dimensions: ['2025-10-15'], metrics: [1, 1], change: [-100, -100] });
    expect(d.comparison.results[0]).toEqual({ dimensions: ['2025-10-13'], metrics: [0, 0], change: [null, null] });
  });
});

describe('long series', () => {
  test('hours over 90 days: 2,160 buckets, more than the chart report gives, every one present', async () => {
    const d = await f.qdata({ metrics: ['visitors', 'pageviews'], date_range: ['2025-08-03', '2025-10-31'], dimensions: ['time:hour'], include: { time_labels: true } });
    expect(d.meta.total_rows).toBe(90 * 24); // 2025-10-26 has 25 hours, its repeated hour one bucket
    expect(sum(d.results, 1)).toBe(11);
  });
});
