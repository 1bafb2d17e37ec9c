// The revenue, realtime and goals reports are presets of POST /query: the same question asked of both gives
// byte-identical figures. Funnels and visitor profiles are not presets (their file headers say why); the
// figures they share with /query (a funnel's first step, goal completions) are the same numbers too.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadQueryFixture, OCTOBER, type QueryFixture } from './setup.ts';
import { WEEK } from '../analytics/setup.ts';
import { setupAccount } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';

let f: QueryFixture;
beforeAll(async () => { f = await loadQueryFixture(); });
afterAll(async () => { await f.srv.cleanup(); });

/** Both sides as JSON text: byte-identical, not merely equal as numbers. */
const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

const US = { report: [{ dimension: 'country', operator: 'is', value: 'US' }], query: [['is', 'visit:country', ['US']]] };
/** Each report question, as its query parameters and as the /query body's period and filters. */
const CASES = [
  { params: WEEK, body: { date_range: '7d', date: '2025-10-26' } },
  { params: { period: 'custom', from: '2025-10-01', to: '2025-10-31' }, body: { date_range: OCTOBER } },
  { params: { ...WEEK, filters: US.report }, body: { date_range: '7d', date: '2025-10-26', filters: US.query } },
];

describe('revenue', () => {
  test('totals, the previous period and the series, per interval', async () => {
    for (const { params, body } of CASES) {
      for (const interval of ['day', 'week'] as const) {
        const report = await f.data('revenue', { ...params, interval });
        const metrics = ['revenue', 'orders', 'average_order_value'];
        const totals = await f.qdata({ ...body, metrics, include: { comparison: 'previous_period' } });
        same(totals.results[0].metrics, metrics.map((m) => report.metrics[m]));
        same(totals.comparison.results[0].metrics, metrics.map((m) => report.previous[m]));
        const series = await f.qdata({ ...body, metrics: ['revenue', 'orders'], dimensions: [`time:${interval}`], include: { time_labels: true } });
        same(series.results, report.points.map((p: any) => ({ dimensions: [p.date], metrics: [p.revenue, p.orders] })));
      }
    }
  });
});

describe('realtime', () => {
  test('visitors, pageviews and the top pages of the last 30 minutes, unfiltered and filtered', async () => {
    const acc = await setupAccount(f.srv.url, { scopes: ['analytics:read'] });
    const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    const line = (min: number, uid: string, path: string, o: Record<string, unknown> = {}) => ({ timestamp: ago(min), visitor_uid: uid, url: `https://example.com${path}`, ...o });
    await importAll(f.srv.url, acc, [
      line(45, 'old', '/gone'), line(40, 'z', '/live'), line(25, 'z', '/live/2'), line(5, 'x', '/live'), line(4, 'x', '/live/2'),
      line(3, 'y', '/live'), line(2, 'y', '/', { event_type: 'custom', event_name: 'Signup' }), line(1, 'w', '/'),
    ]);
    const path = `/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}`;
    for (const [filters, tree] of [[[], []], [[{ dimension: 'page', operator: 'contains', value: '/live' }], [['contains', 'event:page', ['/live']]]]]) {
      const r = await acc.api.get(`${path}/analytics/realtime?filters=${encodeURIComponent(JSON.stringify(filters))}`, acc.key);
      expect(r.status).toBe(200);
      const query = async (body: Record<string, unknown>) => (await acc.api.call('POST', `${path}/query`, { body: { date_range: 'realtime', filters: tree, ...body }, token: acc.key })).body.data;
      const totals = await query({ metrics: ['visitors', 'pageviews'] });
      const pages = await query({
        metrics: ['visitors'], dimensions: ['event:page'], filters: [...tree, ['is', 'event:type', ['pageview']]],
        order_by: [['visitors', 'desc'], ['event:page', 'asc']], pagination: { limit: 10 },
      });
      same({ visitors: totals.results[0].metrics[0], pageviews: totals.results[0].metrics[1], pages: pages.results.map((p: any) => ({ name: p.dimensions[0], visitors: p.metrics[0] })) }, r.body.data);
    }
    // The live visitors are who sent an event in the window, whenever their visit began (z began 40 minutes ago).
    expect((await acc.api.get(`${path}/analytics/realtime`, acc.key)).body.data.visitors).toBe(4);
  });
});

describe('goals', () => {
  const goalsGet = (path: string, params: Record<string, unknown>) => {
    const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    return f.acc.api.get(`${f.sitePath}/goals/${path}?${q}`, f.acc.token).then((r) => r.body.data);
  };

  test('per goal: visitors, completions and conversion rate of event:goal', async () => {
    for (const { params, body } of CASES) {
      const report = await goalsGet('stats', params);
      const q = await f.qdata({ ...body, metrics: ['visitors', 'conversions', 'conversion_rate'], dimensions: ['event:goal'], order_by: [['event:goal', 'asc']] });
      const expected = report.goals.filter((g: any) => g.completions > 0).sort((a: any, b: any) => a.name.localeCompare(b.name))
        .map((g: any) => ({ dimensions: [g.name], metrics: [g.visitors, g.completions, g.conversion_rate] }));
      same(q.results, expected);
    }
  });

  test("one goal's totals (a goal filter) and its points (event:goal by day)", async () => {
    for (const { params, body } of CASES) {
      for (const [name, id] of [['Signup', f.goals.signup], ['Visit pricing', f.goals.pricing]] as const) {
        const report = await goalsGet(`${id}/stats`, { ...params, interval: 'day' });
        const totals = await f.qdata({ ...body, metrics: ['visitors', 'conversions', 'conversion_rate'], filters: [...(body.filters ?? []), ['is', 'event:goal', [name]]] });
        same(totals.results[0].metrics, [report.metrics.visitors, report.metrics.completions, report.metrics.conversion_rate]);
        const byDay = await f.qdata({ ...body, metrics: ['visitors', 'conversions'], dimensions: ['event:goal', 'time:day'] });
        same(byDay.results.filter((r: any) => r.dimensions[0] === name).map((r: any) => [r.dimensions[1], ...r.metrics]),
          report.points.filter((p: any) => p.completions > 0).map((p: any) => [p.date, p.visitors, p.completions]));
      }
    }
  });
});

describe('funnels and visitor profiles share their figures with /query', () => {
  test("a funnel's first step counts the visitors /query counts for that page", async () => {
    const created = await f.acc.api.post(`${f.sitePath}/funnels`, { name: 'Pricing', steps: [{ type: 'pageview', value: '/pricing' }, { type: 'goal', value: f.goals.signup }] }, f.acc.token);
    expect(created.status).toBe(201);
    for (const { params, body } of CASES) {
      const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      const funnel = (await f.acc.api.get(`${f.sitePath}/funnels/${created.body.data.id}/analysis?${q}`, f.acc.token)).body.data;
      const first = await f.qdata({ ...body, metrics: ['visitors'], filters: [...(body.filters ?? []), ['is', 'event:page', ['/pricing']]] });
      same(funnel.steps[0].visitors, first.results[0].metrics[0]);
    }
  });

  test("visitors' goal completions add up to /query's conversions per goal over all time", async () => {
    const list = (await f.acc.api.get(`${f.sitePath}/visitors?limit=100`, f.acc.token)).body.data.visitors;
    const byGoal = await f.qdata({ date_range: 'all', metrics: ['conversions'], dimensions: ['event:goal'] });
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(list.map((v: any) => v.total_goals))).toBeGreaterThan(0);
    same(sum(list.map((v: any) => v.total_goals)), sum(byGoal.results.map((r: any) => r.metrics[0])));
  });
});
