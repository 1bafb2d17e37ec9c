// Dialect parity: the analytics fixture on two servers over real HTTP, one answering from DuckDB, the other from
// ClickHouse (chdb in process, ANALYTICS_ENGINE=clickhouse): every supported report and /query answer is
// identical; the reports ClickHouse does not answer yet are a clear 400 there.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { setupAccount } from '../../helpers/api.ts';
import { importAll } from '../../helpers/import.ts';
import { CHDB, sayIfNoChdb } from '../../helpers/chdb.ts';
import { FIXTURE } from '../../analytics/fixture.ts';

sayIfNoChdb('test/query/dialects/parity.test.ts');

type Side = { srv: TestServer; goals: Record<string, string>; funnels: string[]; get(path: string, params?: Record<string, unknown>): Promise<{ status: number; body: any }>; post(path: string, body: unknown): Promise<{ status: number; body: any }> };

async function side(env: Record<string, string>): Promise<Side> {
  const srv = await startServer({ env });
  const acc = await setupAccount(srv.url, { timezone: 'Europe/Berlin', scopes: ['analytics:read', 'goals:read', 'funnels:read', 'visitors:read'] });
  const sitePath = `/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}`;
  const patched = await acc.api.patch(sitePath, { currency: 'EUR' }, acc.token);
  if (patched.status !== 200) throw new Error(patched.text);
  await importAll(srv.url, acc, FIXTURE);
  const goals: Record<string, string> = {};
  for (const [key, body] of Object.entries(GOALS)) {
    const r = await acc.api.post(`${sitePath}/goals`, body, acc.token);
    if (r.status !== 201) throw new Error(r.text);
    goals[key] = r.body.data.id;
  }
  const funnels: string[] = [];
  for (const [i, f] of FUNNELS.entries()) {
    const steps = f.steps.map((st) => (st.type === 'goal' ? { ...st, value: goals[st.value]! } : st));
    const r = await acc.api.post(`${sitePath}/funnels`, { name: `F${i}`, steps, window: f.window }, acc.token);
    if (r.status !== 201) throw new Error(r.text);
    funnels.push(r.body.data.id);
  }
  // A test asks one server hundreds of questions a minute; a key is limited to 600 a minute, so they take turns.
  const keys = [acc.key];
  for (let i = 0; i < 5; i++) {
    const k = await acc.api.post(`/api/v1/organizations/${acc.orgId}/api-keys`, { name: `parity ${i}`, scopes: ['analytics:read', 'goals:read', 'funnels:read', 'visitors:read'] }, acc.token);
    if (k.status !== 201) throw new Error(k.text);
    keys.push(k.body.data.key);
  }
  let turn = 0;
  const key = () => keys[turn++ % keys.length]!;
  return {
    srv,
    goals,
    funnels,
    get: (path, params = {}) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) q.set(k, typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
      return acc.api.get(`${sitePath}/${path}?${q}`, key());
    },
    post: (path, body) => acc.api.call('POST', `${sitePath}/${path}`, { body, token: key() }),
  };
}

/** An event goal, a pageview goal (equality) and a glob goal (LIKE with depth, and a regular expression). */
const GOALS = {
  signup: { name: 'Signup', type: 'event', event_name: 'Signup', value: 5 },
  pricing: { name: 'Visit pricing', type: 'pageview', path: '/pricing' },
  blog: { name: 'Blog post', type: 'pageview', path: '/blog/*' },
  deep: { name: 'Anything deep', type: 'pageview', path: '/**/post-*' },
  purchase: { name: 'purchase', type: 'event', event_name: 'Purchase' },
};

/** Funnels over every window, with pageview globs, events and goals as steps. */
const FUNNELS = [
  { window: 'session', steps: [{ type: 'pageview', value: '/' }, { type: 'pageview', value: '/pricing' }, { type: 'event', value: 'Purchase' }] },
  { window: '1h', steps: [{ type: 'pageview', value: '/' }, { type: 'goal', value: 'pricing' }] },
  { window: '1d', steps: [{ type: 'pageview', value: '/**' }, { type: 'goal', value: 'purchase' }] },
  { window: '7d', steps: [{ type: 'pageview', value: '/blog/*' }, { type: 'pageview', value: '/blog/*' }, { type: 'event', value: 'Purchase' }] },
  { window: '30d', steps: [{ type: 'goal', value: 'signup' }, { type: 'pageview', value: '/blog/post-1' }] },
];

let duck: Side;
let ch: Side;
const WEEK = { period: '7d', date: '2025-10-26' };
/** Each test asks both servers dozens of questions; a loaded machine (2 cores, shared) needs the room. */
const SLOW = 240_000;
const OCTOBER = { period: 'custom', from: '2025-10-01', to: '2025-10-31' };

beforeAll(async () => {
  if (!CHDB) return;
  [duck, ch] = await Promise.all([side({}), side({ ANALYTICS_ENGINE: 'clickhouse', CLICKHOUSE_URL: `chdb:${mkdtempSync(join(tmpdir(), 'tern-chdb-'))}` })]);
  // ClickHouse holds a batch once the mirror loaded it (visits: once compaction sealed them): wait for all of them.
  const want = (await duck.get('analytics/stats', OCTOBER)).body.data.metrics;
  for (let i = 0; i < 100; i++) {
    const got = await ch.get('analytics/stats', OCTOBER);
    if (got.status === 200 && JSON.stringify(got.body.data.metrics) === JSON.stringify(want)) break;
    await new Promise((r) => setTimeout(r, 300));
  }
}, 120_000);
afterAll(async () => { await Promise.all([duck?.srv.cleanup(), ch?.srv.cleanup()]); });

/** The same GET on both: both 200 with the same data. */
async function sameGet(path: string, params: Record<string, unknown>) {
  const [a, b] = await Promise.all([duck.get(path, params), ch.get(path, params)]);
  expect(a.status).toBe(200);
  expect({ status: b.status, body: b.body }).toEqual({ status: 200, body: a.body });
  return a.body.data;
}

const FILTERS = [
  [],
  [{ dimension: 'country', operator: 'is', value: 'US' }],
  [{ dimension: 'page', operator: 'contains', value: 'blog' }],
  [{ dimension: 'source', operator: 'is', value: 'Direct / None' }],
  [{ dimension: 'browser', operator: 'is_not', value: ['Chrome', 'Firefox'] }],
  [{ dimension: 'prop:plan', operator: 'is', value: 'pro' }],
  [{ dimension: 'page', operator: 'matches', value: '^/(pricing|about)$' }],
  [{ dimension: 'entry_page', operator: 'is', value: '/' }, { dimension: 'event_name', operator: 'not_contains', value: 'Sign' }],
];
const PERIODS = [WEEK, OCTOBER, { period: 'day', date: '2025-10-26' }, { period: '12mo', date: '2025-10-31' }, { period: 'month', date: '2025-10-26' }];
const BREAKDOWNS: [string, string[]][] = [
  ['pages', ['page', 'entry_page', 'exit_page', 'hostname']],
  ['sources', ['source', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content']],
  ['channels', ['channel']],
  ['devices', ['device', 'browser', 'browser_version', 'os', 'os_version', 'screen']],
  ['locations', ['country', 'region', 'city']],
];

describe.skipIf(!CHDB)('DuckDB and ClickHouse give identical answers', () => {
  test('the fixture is non-trivial on both (so equality means something)', async () => {
    const d = await sameGet('analytics/stats', WEEK);
    expect(d.metrics.visitors).toBeGreaterThan(0);
    expect(d.metrics.pageviews).toBeGreaterThan(0);
  }, SLOW);

  test.each(FILTERS.map((f) => [JSON.stringify(f), f]))('stats and charts, every period, filters %s', async (_, filters) => {
    for (const p of PERIODS) {
      await sameGet('analytics/stats', { ...p, filters, compare: 'previous_period' });
      await sameGet('analytics/charts', { ...p, filters });
    }
    for (const interval of ['hour', 'day', 'week', 'month']) await sameGet('analytics/charts', { ...OCTOBER, filters, interval: interval === 'hour' ? 'day' : interval });
    await sameGet('analytics/charts', { period: 'day', date: '2025-10-26', filters, interval: 'hour' });
  }, SLOW);

  test.each(FILTERS.map((f) => [JSON.stringify(f), f]))('every breakdown and dimension, filters %s', async (_, filters) => {
    for (const [endpoint, dims] of BREAKDOWNS) {
      for (const dimension of dims) {
        for (const p of [WEEK, OCTOBER]) await sameGet(`analytics/${endpoint}`, { ...p, filters, dimension });
      }
    }
    await sameGet('analytics/pages', { ...OCTOBER, filters, limit: 2, page: 2 });
  }, SLOW);

  test.each(FILTERS.map((f) => [JSON.stringify(f), f]))('revenue and goals (every goal, its chart), filters %s', async (_, filters) => {
    for (const p of PERIODS) {
      await sameGet('analytics/revenue', { ...p, filters });
      const [a, b] = await Promise.all([duck.get('goals/stats', { ...p, filters }), ch.get('goals/stats', { ...p, filters })]);
      expect(a.status).toBe(200);
      // Goal ids differ between the two servers; everything else is the same.
      const strip = (r: any) => r.body.data.goals.map(({ id: _id, ...g }: any) => g);
      expect({ status: b.status, goals: b.status === 200 ? strip(b) : b.body }).toEqual({ status: 200, goals: strip(a) });
    }
    for (const key of Object.keys(GOALS)) {
      for (const p of [WEEK, OCTOBER]) {
        const [a, b] = await Promise.all([duck.get(`goals/${duck.goals[key]}/stats`, { ...p, filters }), ch.get(`goals/${ch.goals[key]}/stats`, { ...p, filters })]);
        expect(a.status).toBe(200);
        const strip = (r: any) => ({ ...r.body.data, goal: undefined });
        expect({ status: b.status, data: b.status === 200 ? strip(b) : b.body }).toEqual({ status: 200, data: strip(a) });
      }
    }
  }, SLOW);

  test.each(FILTERS.map((f) => [JSON.stringify(f), f]))('funnels (every window), filters %s', async (_, filters) => {
    for (let i = 0; i < FUNNELS.length; i++) {
      for (const p of [WEEK, OCTOBER]) {
        const [a, b] = await Promise.all([duck.get(`funnels/${duck.funnels[i]}/analysis`, { ...p, filters }), ch.get(`funnels/${ch.funnels[i]}/analysis`, { ...p, filters })]);
        expect(a.status).toBe(200);
        const strip = (r: any) => ({ ...r.body.data, funnel: undefined });
        if (b.status !== 200) console.log(ch.srv.logs().split('\n').filter((l) => l.includes('error')).slice(-3).join('\n'));
        expect({ status: b.status, data: b.status === 200 ? strip(b) : b.body }).toEqual({ status: 200, data: strip(a) });
      }
    }
  }, SLOW);

  test('realtime', async () => {
    await sameGet('analytics/realtime', {});
  }, SLOW);

  const QUERIES: Record<string, unknown>[] = [
    { metrics: ['visitors', 'visits', 'pageviews', 'events', 'views_per_visit', 'bounce_rate', 'visit_duration'] },
    { metrics: ['visitors', 'pageviews', 'time_on_page', 'scroll_depth', 'exit_rate', 'percentage'], dimensions: ['event:page'], order_by: [['pageviews', 'desc']] },
    { metrics: ['visitors', 'events'], dimensions: ['event:props:plan'] },
    // The Properties panel's values and the key list with visitors: DuckDB reads its property index (prop_values), ClickHouse the events.
    { metrics: ['visitors', 'events', 'percentage'], dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:plan', ['(none)']]], pagination: { limit: 9 } },
    { metrics: ['visitors', 'events', 'percentage'], dimensions: ['event:props'] },
    { metrics: ['events'], dimensions: ['event:props'] },
    { metrics: ['visitors', 'visits'], dimensions: ['visit:source', 'visit:country'], order_by: [['visit:source', 'asc'], ['visit:country', 'asc']] },
    { metrics: ['events', 'visitors'], dimensions: ['event:name', 'visit:browser'] },
    { metrics: ['pageviews'], date_range: 'day', date: '2025-10-26', dimensions: ['time:hour'], include: { time_labels: true } },
    { metrics: ['visitors', 'visits'], date_range: '7d', date: '2025-10-26', dimensions: ['time:day'], include: { comparison: 'previous_period', totals: true } },
    { metrics: ['visits', 'bounce_rate'], dimensions: ['time:week', 'visit:device'] },
    { metrics: ['visits'], dimensions: ['visit:source'], filters: [['has_done', ['is', 'event:name', ['Signup']]]], order_by: [['visit:source', 'asc']] },
    { metrics: ['visits'], filters: [['has_not_done', ['is', 'event:name', ['Signup']]]] },
    { metrics: ['visitors'], filters: [['or', [['is', 'visit:country', ['GB']], ['contains', 'event:page', ['blog']]]]] },
    { metrics: ['visitors', 'bounce_rate', 'visit_duration'], dimensions: ['event:hostname'], include: { totals: true } },
    { metrics: ['visitors', 'events'], dimensions: ['visit:entry_page'], filters: [['is', 'event:name', ['Signup']]] },
    { metrics: ['revenue', 'orders', 'average_order_value'], dimensions: ['visit:country'] },
    { metrics: ['revenue', 'orders'], date_range: ['2025-10-21', '2025-10-31'], dimensions: ['time:day'] },
    { metrics: ['visitors', 'conversions', 'conversion_rate'], dimensions: ['event:goal'] },
    { metrics: ['visitors', 'conversions', 'conversion_rate'], dimensions: ['visit:country'], filters: [['is', 'event:goal', ['Visit pricing']]] },
    { metrics: ['visitors', 'revenue'], dimensions: ['event:goal', 'visit:source'] },
  ];
  test.each(QUERIES.map((q) => [JSON.stringify(q), q]))('POST /query %s', async (_, body) => {
    const b = { date_range: ['2025-10-01', '2025-10-31'], ...body };
    const [x, y] = await Promise.all([duck.post('query', b), ch.post('query', b)]);
    expect(x.status).toBe(200);
    expect({ status: y.status, body: y.body }).toEqual({ status: 200, body: x.body });
  }, SLOW);

  test('visitors: the list (with lifetime goal completions), each timeline, each goal\'s completions', async () => {
    // Profile ids are each server's own; the rest is the same.
    const list = async (s: Side) => {
      const r = await s.get('visitors', { limit: 100 });
      expect(r.status).toBe(200);
      return r.body.data.visitors as any[];
    };
    const [a, b] = await Promise.all([list(duck), list(ch)]);
    const strip = (vs: any[]) => vs.map(({ id: _id, ...v }) => v);
    expect(a.length).toBe(5);
    expect(strip(b)).toEqual(strip(a));
    for (let i = 0; i < a.length; i++) {
      for (const page of [{ limit: 100 }, { limit: 2, page: 2 }]) {
        const [x, y] = await Promise.all([duck.get(`visitors/${a[i].id}/timeline`, page), ch.get(`visitors/${b[i].id}/timeline`, page)]);
        expect(x.status).toBe(200);
        const shape = (r: any) => ({ ...r.body.data, visitor: { ...r.body.data.visitor, id: undefined } });
        if (y.status !== 200) console.log(ch.srv.logs().split('\n').filter((l) => l.includes('error')).slice(-1).join('\n'));
        expect({ status: y.status, data: y.status === 200 ? shape(y) : y.body }).toEqual({ status: 200, data: shape(x) });
      }
    }
    const profileOf = new Map(b.map((v, i) => [v.id, a[i].id]));
    for (const key of Object.keys(GOALS)) {
      for (const params of [{}, { ...OCTOBER, filters: [{ dimension: 'country', operator: 'is', value: 'US' }] }, { period: '12mo', date: '2025-10-31', limit: 2, page: 2 }]) {
        const [x, y] = await Promise.all([duck.get(`goals/${duck.goals[key]}/completions`, params), ch.get(`goals/${ch.goals[key]}/completions`, params)]);
        expect(x.status).toBe(200);
        // The ClickHouse side's profile ids, mapped to the DuckDB side's for the same visitor.
        const mapped = (r: any) => ({ ...r.body.data, completions: r.body.data.completions.map((c: any) => ({ ...c, visitor_id: profileOf.get(c.visitor_id) ?? c.visitor_id })) });
        expect({ status: y.status, data: y.status === 200 ? mapped(y) : y.body }).toEqual({ status: 200, data: x.body.data });
      }
    }
  }, SLOW);
});
