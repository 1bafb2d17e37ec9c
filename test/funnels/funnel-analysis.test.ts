// Funnel analysis over HTTP: step order, the session/1d/7d/1h windows, goal steps, filters, one count per visitor.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { importEvents, type FixtureEvent } from '../helpers/fixture-events.ts';

// Hand-counted fixture, site in UTC. Funnel: /pricing → /signup/* → Purchase.
//  a: full path in one visit (300 s, 300 s)            b: /pricing → /signup/free (120 s)
//  c: signup BEFORE pricing (step 1 only)               d: Purchase, signup, then pricing (step 1 only)
//  e: /pricing; 2 h later a new visit: signup (7200 s), Purchase (300 s)
//  f: /about only                                       g: /pricing → /signup/a/b ('*' is one segment: step 1 only)
//  h: /pricing, then /signup/z 26 h later (93600 s)
const events: FixtureEvent[] = [
  { uid: 'a', at: '2026-03-01T10:00:00Z', path: '/pricing' },
  { uid: 'a', at: '2026-03-01T10:05:00Z', path: '/signup/pro' },
  { uid: 'a', at: '2026-03-01T10:10:00Z', name: 'Purchase' },
  { uid: 'b', at: '2026-03-01T11:00:00Z', path: '/pricing' },
  { uid: 'b', at: '2026-03-01T11:02:00Z', path: '/signup/free' },
  { uid: 'c', at: '2026-03-01T12:00:00Z', path: '/signup/free' },
  { uid: 'c', at: '2026-03-01T12:01:00Z', path: '/pricing' },
  { uid: 'd', at: '2026-03-01T13:00:00Z', name: 'Purchase' },
  { uid: 'd', at: '2026-03-01T13:01:00Z', path: '/signup/x' },
  { uid: 'd', at: '2026-03-01T13:02:00Z', path: '/pricing' },
  { uid: 'e', at: '2026-03-01T14:00:00Z', path: '/pricing' },
  { uid: 'e', at: '2026-03-01T16:00:00Z', path: '/signup/a' },
  { uid: 'e', at: '2026-03-01T16:05:00Z', name: 'Purchase' },
  { uid: 'f', at: '2026-03-01T15:00:00Z', path: '/about' },
  { uid: 'g', at: '2026-03-01T09:00:00Z', path: '/pricing' },
  { uid: 'g', at: '2026-03-01T09:01:00Z', path: '/signup/a/b' },
  { uid: 'h', at: '2026-03-01T10:00:00Z', path: '/pricing' },
  { uid: 'h', at: '2026-03-02T12:00:00Z', path: '/signup/z' },
];
const STEPS = [
  { type: 'pageview', value: '/pricing', label: 'Pricing' },
  { type: 'pageview', value: '/signup/*' },
  { type: 'event', value: 'Purchase' },
];
const RANGE = 'period=custom&from=2026-03-01&to=2026-03-02';

let base: string;
const fx = withServer({ accounts: { acct: { scopes: ['funnels:read', 'funnels:write', 'goals:write'] } } });
beforeAll(async () => {
  base = `/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}`;
  await importEvents(fx.srv.url, fx.acct, events);
});

async function analyze(body: object, query = RANGE) {
  const f = await fx.acct.api.post(`${base}/funnels`, body, fx.acct.key);
  expect(f.status).toBe(201);
  const res = await fx.acct.api.get(`${base}/funnels/${f.body.data.id}/analysis?${query}`, fx.acct.key);
  expect(res).toMatchObject({ status: 200 });
  return res.body.data;
}
const pick = (steps: any[], field: string) => steps.map((s) => s[field]);

test('session window: steps count only in order, within one visit', async () => {
  const r = await analyze({ name: 'Checkout', steps: STEPS });
  expect(r.range).toEqual({ from: '2026-03-01', to: '2026-03-02', timezone: 'UTC' });
  expect(r.funnel.window).toBe('session');
  expect(pick(r.steps, 'step')).toEqual([1, 2, 3]);
  expect(pick(r.steps, 'label')).toEqual(['Pricing', '/signup/*', 'Purchase']);
  expect(pick(r.steps, 'visitors')).toEqual([7, 2, 1]); // a,b,c,d,e,g,h → a,b → a
  expect(pick(r.steps, 'conversion_rate')).toEqual([100, 28.57, 14.29]);
  expect(pick(r.steps, 'step_conversion_rate')).toEqual([100, 28.57, 50]);
  expect(pick(r.steps, 'dropoff')).toEqual([0, 5, 1]);
  expect(pick(r.steps, 'median_seconds_from_previous')).toEqual([null, 210, 300]); // median(300, 120); a's 300
  expect(r.conversion_rate).toBe(14.29);
});

test('1d window from the first step: crosses visits, not 24 h', async () => {
  const r = await analyze({ name: 'Checkout 1d', steps: STEPS, window: '1d' });
  expect(pick(r.steps, 'visitors')).toEqual([7, 3, 2]); // + e in both later steps; h's signup is 26 h later
  expect(pick(r.steps, 'median_seconds_from_previous')).toEqual([null, 300, 300]); // median(300, 120, 7200); median(300, 300)
  expect(pick(r.steps, 'dropoff')).toEqual([0, 4, 1]);
});

test('7d window and a 1h window', async () => {
  const week = await analyze({ name: 'Checkout 7d', steps: STEPS, window: '7d' });
  expect(pick(week.steps, 'visitors')).toEqual([7, 4, 2]); // + h
  expect(week.steps[1].median_seconds_from_previous).toBe(3750); // median(120, 300, 7200, 93600)
  const hour = await analyze({ name: 'Checkout 1h', steps: STEPS, window: '1h' });
  expect(pick(hour.steps, 'visitors')).toEqual([7, 2, 1]);
});

test('goal steps use the goal definition; out-of-order events do not count', async () => {
  const goal = await fx.acct.api.post(`${base}/goals`, { name: 'Any signup', type: 'pageview', path: '/signup/**' }, fx.acct.key);
  const r = await analyze({ name: 'Signup → buy', steps: [{ type: 'goal', value: goal.body.data.id }, { type: 'event', value: 'Purchase' }] });
  expect(pick(r.steps, 'label')).toEqual(['Any signup', 'Purchase']);
  expect(pick(r.steps, 'visitors')).toEqual([7, 2]); // every visitor but f; then a and e (d bought before signing up)
});

test('filters keep the visits that match; the range bounds the events', async () => {
  const filters = encodeURIComponent(JSON.stringify([{ dimension: 'page', operator: 'is', value: '/signup/pro' }]));
  const r = await analyze({ name: 'Filtered', steps: STEPS }, `${RANGE}&filters=${filters}`);
  expect(pick(r.steps, 'visitors')).toEqual([1, 1, 1]);
  const day2 = await analyze({ name: 'Day 2', steps: STEPS }, 'period=day&date=2026-03-02');
  expect(pick(day2.steps, 'visitors')).toEqual([0, 0, 0]);
  expect(day2.conversion_rate).toBe(0);
  expect(day2.steps[1].median_seconds_from_previous).toBeNull();
});

test('a visitor with several visits counts once, for the deepest visit; medians use that visit', async () => {
  const other = await setupAccount(fx.srv.url, { scopes: ['funnels:read', 'funnels:write'] });
  await importEvents(fx.srv.url, other, [
    { uid: 'r', at: '2026-03-01T08:00:00Z', path: '/pricing' }, // visit 1: step 1 only
    { uid: 'r', at: '2026-03-01T12:00:00Z', path: '/pricing' }, // visit 2: steps 1–3, 60 s and 30 s apart
    { uid: 'r', at: '2026-03-01T12:01:00Z', path: '/signup/team' },
    { uid: 'r', at: '2026-03-01T12:01:30Z', name: 'Purchase' },
    { uid: 's', at: '2026-03-01T09:00:00Z', path: '/pricing' }, // a second visitor: steps 1–2, 600 s
    { uid: 's', at: '2026-03-01T09:10:00Z', path: '/signup/solo' },
    { uid: 's', at: '2026-03-01T09:11:00Z', path: '/signup/again' }, // a repeat of step 2 changes nothing
    { uid: 't', at: '2026-03-01T15:00:00Z', path: '/pricing' }, // a third: two visits equally deep (steps 1–2),
    { uid: 't', at: '2026-03-01T15:20:00Z', path: '/signup/late' }, // 1,200 s and 40 s: the earlier visit's gap
    { uid: 't', at: '2026-03-01T10:00:00Z', path: '/pricing' }, // counts, though sent after the later one
    { uid: 't', at: '2026-03-01T10:00:40Z', path: '/signup/early' },
  ]);
  const obase = `/api/v1/organizations/${other.orgId}/sites/${other.site.id}`;
  const f = await other.api.post(`${obase}/funnels`, { name: 'Checkout', steps: STEPS }, other.key);
  const r = (await other.api.get(`${obase}/funnels/${f.body.data.id}/analysis?${RANGE}`, other.key)).body.data;
  expect(pick(r.steps, 'visitors')).toEqual([3, 3, 1]);
  expect(pick(r.steps, 'median_seconds_from_previous')).toEqual([null, 60, 30]); // median(60, 600, 40 from t's earlier visit); 30
});
