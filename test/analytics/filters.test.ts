// The filter language of contract §7 over the fixture: every operator, arrays, visit- vs event-level
// semantics, prop:<key>, goal, validation errors and hostile input.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadFixture, WEEK, type Fixture } from './setup.ts';

let f: Fixture;
beforeAll(async () => { f = await loadFixture(); });
afterAll(async () => { await f.srv.cleanup(); });

type Counts = { visitors: number; visits: number; pageviews: number; events: number };
const counts = async (...filters: object[]): Promise<Counts> => {
  const { visitors, visits, pageviews, events } = (await f.data('stats', { ...WEEK, filters })).metrics;
  return { visitors, visits, pageviews, events };
};
const is = (dimension: string, value: string | string[], operator = 'is') => ({ dimension, operator, value });

describe('event-level dimensions: matching events for event metrics, visits holding one for visit metrics', () => {
  test.each([
    ['page is', is('page', '/pricing'), { visitors: 3, visits: 3, pageviews: 3, events: 4 }],
    ['page is_not', is('page', '/pricing', 'is_not'), { visitors: 4, visits: 5, pageviews: 6, events: 8 }],
    ['page is any of an array', is('page', ['/', '/pricing']), { visitors: 3, visits: 4, pageviews: 6, events: 7 }],
    ['page contains', is('page', 'blog', 'contains'), { visitors: 2, visits: 2, pageviews: 3, events: 3 }],
    ['page not_contains', is('page', 'blog', 'not_contains'), { visitors: 4, visits: 5, pageviews: 6, events: 9 }],
    ['page matches', is('page', '^/blog/post-[0-9]$', 'matches'), { visitors: 2, visits: 2, pageviews: 3, events: 3 }],
    ['page not_matches', is('page', '^/blog', 'not_matches'), { visitors: 4, visits: 5, pageviews: 6, events: 9 }],
    ['page matches any of an array', is('page', ['^/$', 'post-2'], 'matches'), { visitors: 4, visits: 4, pageviews: 4, events: 4 }],
    ['hostname is', is('hostname', 'example.com'), { visitors: 4, visits: 6, pageviews: 9, events: 12 }],
    ['event_name is', is('event_name', 'Signup'), { visitors: 1, visits: 1, pageviews: 0, events: 1 }],
    // B1 started in range and holds purchases just after it: the visit counts, its events do not.
    ['event_type is', is('event_type', 'purchase'), { visitors: 2, visits: 2, pageviews: 0, events: 2 }],
    ['prop is', is('prop:plan', 'pro'), { visitors: 1, visits: 1, pageviews: 0, events: 1 }],
    ['prop is_not', is('prop:plan', 'pro', 'is_not'), { visitors: 4, visits: 6, pageviews: 9, events: 11 }],
    ['prop is "(none)" (absent)', is('prop:plan', '(none)'), { visitors: 4, visits: 6, pageviews: 9, events: 11 }],
    ['prop contains', is('prop:plan', 'r', 'contains'), { visitors: 1, visits: 1, pageviews: 0, events: 1 }],
  ])('%s', async (_name, filter, expected) => {
    expect(await counts(filter)).toEqual(expected);
  });
});

describe('visit-level dimensions keep the matching visits and all their events', () => {
  test.each([
    ['entry_page is', is('entry_page', '/'), { visitors: 3, visits: 3, pageviews: 5, events: 6 }],
    ['exit_page is', is('exit_page', '/pricing'), { visitors: 3, visits: 3, pageviews: 5, events: 6 }],
    ['source is', is('source', 'Google'), { visitors: 1, visits: 1, pageviews: 2, events: 3 }],
    ['source is "Direct / None"', is('source', 'Direct / None'), { visitors: 3, visits: 3, pageviews: 4, events: 6 }],
    ['source is_not', is('source', 'Google', 'is_not'), { visitors: 4, visits: 5, pageviews: 7, events: 9 }],
    ['referrer contains', is('referrer', 'twitter', 'contains'), { visitors: 1, visits: 1, pageviews: 1, events: 1 }],
    ['channel is', is('channel', 'Organic Social'), { visitors: 1, visits: 1, pageviews: 1, events: 1 }],
    ['utm_source is', is('utm_source', 'newsletter'), { visitors: 1, visits: 1, pageviews: 2, events: 2 }],
    ['utm_medium contains', is('utm_medium', 'mail', 'contains'), { visitors: 1, visits: 1, pageviews: 2, events: 2 }],
    ['utm_campaign matches', is('utm_campaign', '^aut', 'matches'), { visitors: 1, visits: 1, pageviews: 2, events: 2 }],
    ['utm_term is "(none)"', is('utm_term', '(none)'), { visitors: 4, visits: 6, pageviews: 9, events: 12 }],
    ['utm_content not_contains', is('utm_content', 'x', 'not_contains'), { visitors: 4, visits: 6, pageviews: 9, events: 12 }],
    ['country is', is('country', 'GB'), { visitors: 1, visits: 1, pageviews: 2, events: 2 }],
    ['country is an array', is('country', ['GB', 'US']), { visitors: 4, visits: 6, pageviews: 9, events: 12 }],
    ['region is', is('region', 'England'), { visitors: 1, visits: 1, pageviews: 2, events: 2 }],
    ['city is_not', is('city', 'London', 'is_not'), { visitors: 3, visits: 5, pageviews: 7, events: 10 }],
    ['device is', is('device', 'mobile'), { visitors: 1, visits: 1, pageviews: 2, events: 2 }],
    ['browser is', is('browser', 'Firefox'), { visitors: 1, visits: 2, pageviews: 2, events: 2 }],
    ['browser_version is', is('browser_version', '124.0'), { visitors: 2, visits: 3, pageviews: 5, events: 8 }],
    ['os is', is('os', 'Windows'), { visitors: 2, visits: 3, pageviews: 5, events: 8 }],
    ['os_version not_matches', is('os_version', '^1', 'not_matches'), { visitors: 1, visits: 2, pageviews: 2, events: 2 }],
    ['screen is "(none)"', is('screen', '(none)'), { visitors: 4, visits: 6, pageviews: 9, events: 12 }],
  ])('%s', async (_name, filter, expected) => {
    expect(await counts(filter)).toEqual(expected);
  });

  test('filters combine with AND across levels', async () => {
    // US visits (A1, A2, C1, C2, D1) ∩ visits holding /pricing (A1, B1, C1).
    expect(await counts(is('country', 'US'), is('page', '/pricing'))).toEqual({ visitors: 2, visits: 2, pageviews: 2, events: 3 });
  });

  test('filters narrow breakdowns and charts too', async () => {
    const pages = await f.data('pages', { ...WEEK, filters: [is('country', 'GB')] });
    expect(pages.results.map((r: any) => [r.name, r.visitors])).toEqual([['/', 1], ['/pricing', 1]]);
    const sources = await f.data('sources', { ...WEEK, filters: [is('page', '/pricing')] });
    expect(sources.results.map((r: any) => r.name)).toEqual(['Google', 'newsletter', 'Twitter']);
    const chart = await f.data('charts', { ...WEEK, filters: [is('device', 'mobile')] });
    expect(chart.points.map((p: any) => p.visits)).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });
});

describe('goal filter', () => {
  const goal = async (body: object) => {
    const r = await f.acc.api.post(`${f.sitePath}/goals`, body, f.acc.token);
    expect(r.status).toBe(201);
    return r.body.data.id as string;
  };

  test('pageview goal with ** wildcard, event goal, is_not, several goals', async () => {
    const blog = await goal({ name: 'Blog', type: 'pageview', path: '/blog/**' });
    const signup = await goal({ name: 'Signup', type: 'event', event_name: 'Signup' });
    const post = await goal({ name: 'Post', type: 'pageview', path: '/blog/*' });
    expect(await counts(is('goal', blog))).toEqual({ visitors: 2, visits: 2, pageviews: 3, events: 3 });
    expect(await counts(is('goal', post))).toEqual({ visitors: 2, visits: 2, pageviews: 3, events: 3 });
    expect(await counts(is('goal', signup))).toEqual({ visitors: 1, visits: 1, pageviews: 0, events: 1 });
    expect((await counts(is('goal', blog, 'is_not'))).events).toBe(9);
    expect(await counts(is('goal', [blog, signup]))).toEqual({ visitors: 2, visits: 3, pageviews: 3, events: 4 });
  });

  test('an unknown goal id or an operator other than is/is_not → 400', async () => {
    const unknown = await f.get('stats', { ...WEEK, filters: [is('goal', '00000000-0000-0000-0000-000000000000')] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/unknown goal/);
    expect((await f.get('stats', { ...WEEK, filters: [is('goal', 'not-a-uuid')] })).status).toBe(400);
    expect((await f.get('stats', { ...WEEK, filters: [is('goal', 'x', 'contains')] })).status).toBe(400);
  });
});

describe('invalid filters → 400 naming the problem', () => {
  test.each([
    ['not JSON', '[{oops', /not valid JSON/],
    ['not an array', '{"dimension":"page"}', /filters/],
    ['unknown dimension', JSON.stringify([is('pagez', '/')]), /unknown dimension 'pagez'/],
    ['unknown operator', JSON.stringify([is('page', '/', 'like')]), /unknown operator 'like'/],
    ['missing value', JSON.stringify([{ dimension: 'page', operator: 'is' }]), /value/],
    ['number value', JSON.stringify([{ dimension: 'page', operator: 'is', value: 5 }]), /value/],
    ['empty array value', JSON.stringify([is('page', [])]), /value/],
    ['extra key', JSON.stringify([{ ...is('page', '/'), sql: 'x' }]), /filter 0/],
    ['empty property key', JSON.stringify([is('prop:', 'x')]), /property key/],
    ['invalid regular expression', JSON.stringify([is('page', '(', 'matches')]), /invalid regular expression/],
    ['unsupported regex syntax', JSON.stringify([is('page', '(?=a)', 'not_matches')]), /invalid regular expression/],
  ])('%s', async (_name, filters, message) => {
    const r = await f.get('stats', { ...WEEK, filters });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});

describe('hostile input is data, never SQL', () => {
  const injections = ["' OR 1=1 --", "'); DROP TABLE events; --", '" OR ""="', '\\', "%' OR '%'='"];
  test.each(injections)('value %p matches nothing and breaks nothing', async (value) => {
    for (const endpoint of ['stats', 'pages', 'sources', 'charts', 'revenue', 'realtime']) {
      const r = await f.get(endpoint, { ...WEEK, filters: [is('page', value)] });
      expect(r.status).toBe(200);
    }
    expect(await counts(is('page', value))).toEqual({ visitors: 0, visits: 0, pageviews: 0, events: 0 });
    expect(await counts(is('prop:' + value, 'x'))).toEqual({ visitors: 0, visits: 0, pageviews: 0, events: 0 });
    expect((await counts(is('source', value, 'contains'))).visits).toBe(0);
  });

  test('hostile dimension names and query parameters are 400s; the data is intact afterwards', async () => {
    for (const dimension of ["page' OR 1=1 --", 'page; DROP TABLE events', 'path']) {
      expect((await f.get('stats', { ...WEEK, filters: [is(dimension, '/')] })).status).toBe(400);
    }
    expect((await f.get('pages', { ...WEEK, dimension: "page'--" })).status).toBe(400);
    expect((await f.get('pages', { ...WEEK, limit: '1; DROP TABLE events' })).status).toBe(400);
    expect((await f.get('stats', { period: "day' OR 1=1" })).status).toBe(400);
    expect((await f.get('stats', { period: 'day', date: "2025-10-26' --" })).status).toBe(400);
    expect(await counts()).toEqual({ visitors: 4, visits: 6, pageviews: 9, events: 12 });
  });
});
