// POST /query against the reports (the breakdowns are its presets: the same rows), 30 malformed bodies that
// each get a 400 naming the part, hostile strings as data, and CSV answers read back by a CSV parser.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { loadQueryFixture, OCTOBER, type QueryFixture } from './setup.ts';
import { WEEK } from '../analytics/setup.ts';
import { BREAKDOWNS } from '../../src/query/parse/dimensions.ts';
import { apiName } from '../../src/query/parse/presets.ts';
import { importAll } from '../helpers/import.ts';

let f: QueryFixture;
beforeAll(async () => { f = await loadQueryFixture(); });
afterAll(async () => { await f.srv.cleanup(); });

const ROW_METRICS = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'percentage'];
const FILTERS = [{ dimension: 'country', operator: 'is', value: 'US' }];

describe('the reports are presets of /query: the same answers', () => {
  test('every breakdown endpoint and dimension, filtered and paged, row for row', async () => {
    for (const [endpoint, dims] of Object.entries(BREAKDOWNS)) {
      for (const dim of dims) {
        const metrics = endpoint === 'pages' ? [...ROW_METRICS, 'time_on_page', 'scroll_depth'] : ROW_METRICS;
        for (const [params, body] of [
          [{ ...WEEK, dimension: dim }, {}],
          [{ ...WEEK, dimension: dim, filters: FILTERS, limit: 2, page: 2 }, { filters: [['is', 'visit:country', ['US']]], pagination: { limit: 2, offset: 2 } }],
        ] as const) {
          const report = await f.data(endpoint, params);
          const q = await f.qdata({ metrics, date_range: '7d', date: '2025-10-26', dimensions: [apiName(dim)], ...body });
          const expected = report.results.map((r: any) => ({ dimensions: [r.name], metrics: metrics.map((m) => r[m]) }));
          expect([endpoint, dim, q.results]).toEqual([endpoint, dim, expected]);
          expect(q.meta.total_rows).toBe(report.pagination.total);
        }
      }
    }
  });

  test('the general path (an explicit order takes it) counts the same rows as the ranked breakdown', async () => {
    for (const [endpoint, dims] of Object.entries(BREAKDOWNS)) {
      for (const dim of dims) {
        const metrics = endpoint === 'pages' ? [...ROW_METRICS, 'time_on_page', 'scroll_depth'] : ROW_METRICS;
        const report = await f.data(endpoint, { ...WEEK, dimension: dim });
        const order_by = [['visitors', 'desc'], ['pageviews', 'desc'], [apiName(dim), 'asc']];
        const q = await f.qdata({ metrics: [...metrics], date_range: '7d', date: '2025-10-26', dimensions: [apiName(dim)], order_by });
        const expected = report.results.map((r: any) => ({ dimensions: [r.name], metrics: metrics.map((m) => r[m]) }));
        expect([endpoint, dim, q.results]).toEqual([endpoint, dim, expected]);
      }
    }
  });

  test('stats and charts: the same figures without dimensions and by day', async () => {
    const stats = await f.data('stats', WEEK);
    const keys = ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration', 'events'];
    const q = await f.qdata({ metrics: keys, date_range: '7d', date: '2025-10-26' });
    expect(q.results[0].metrics).toEqual(keys.map((k) => stats.metrics[k]));
    const chart = await f.data('charts', { ...WEEK, interval: 'day' });
    const series = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'];
    const byDay = await f.qdata({ metrics: series, date_range: '7d', date: '2025-10-26', dimensions: ['time:day'], include: { time_labels: true } });
    expect(byDay.results).toEqual(chart.points.map((p: any) => ({ dimensions: [p.date], metrics: series.map((k) => p[k]) })));
    // With one more metric (orders) the general path counts them: the same figures.
    const general = await f.qdata({ metrics: [...keys, 'orders'], date_range: '7d', date: '2025-10-26' });
    expect(general.results[0].metrics.slice(0, -1)).toEqual(keys.map((k) => stats.metrics[k]));
    const generalByDay = await f.qdata({ metrics: [...series, 'orders'], date_range: '7d', date: '2025-10-26', dimensions: ['time:day'], include: { time_labels: true } });
    expect(generalByDay.results.map((r: any) => ({ ...r, metrics: r.metrics.slice(0, -1) }))).toEqual(byDay.results);
  });
});

describe('the other reports count the same figures', () => {
  test('revenue, orders and average order value as /analytics/revenue; goal conversions as /goals/stats', async () => {
    for (const params of [WEEK, { period: 'custom', from: '2025-10-01', to: '2025-10-31' }]) {
      const range = 'from' in params ? OCTOBER : '7d';
      const date = 'from' in params ? {} : { date: '2025-10-26' };
      const revenue = await f.data('revenue', params);
      const q = await f.qdata({ metrics: ['revenue', 'orders', 'average_order_value'], date_range: range, ...date });
      expect(q.results[0].metrics).toEqual([revenue.metrics.revenue, revenue.metrics.orders, revenue.metrics.average_order_value]);
      const goals = await f.acc.api.get(`${f.sitePath}/goals/stats?${new URLSearchParams(params as Record<string, string>)}`, f.acc.token);
      const byGoal = await f.qdata({ metrics: ['visitors', 'conversions', 'conversion_rate'], date_range: range, ...date, dimensions: ['event:goal'], order_by: [['event:goal', 'asc']] });
      const expected = goals.body.data.goals.filter((g: any) => g.completions > 0).sort((a: any, b: any) => a.name.localeCompare(b.name))
        .map((g: any) => ({ dimensions: [g.name], metrics: [g.visitors, g.completions, g.conversion_rate] }));
      expect(byGoal.results).toEqual(expected);
    }
  });
});

const MALFORMED: [unknown, string][] = [
  [null, 'body'],
  [[], 'body'],
  [{ date_range: '7d' }, 'metrics'],
  [{ metrics: ['visitors'] }, 'date_range'],
  [{ metrics: 'visitors', date_range: '7d' }, 'metrics'],
  [{ metrics: [], date_range: '7d' }, 'metrics'],
  [{ metrics: Array(13).fill('visitors'), date_range: '7d' }, 'metrics'],
  [{ metrics: ['visitors', 'colour'], date_range: '7d' }, 'metrics[1]'],
  [{ metrics: ['visitors', 'visitors'], date_range: '7d' }, 'metrics[1]'],
  [{ metrics: ['visitors'], date_range: 'fortnight' }, 'date_range'],
  [{ metrics: ['visitors'], date_range: ['2025-10-01'] }, 'date_range'],
  [{ metrics: ['visitors'], date_range: ['2025-10-01', '2025-02-30'] }, 'date_range[1]'],
  [{ metrics: ['visitors'], date_range: ['2025-10-31', '2025-10-01'] }, 'date_range'],
  [{ metrics: ['visitors'], date_range: '7d', date: 'yesterday' }, 'date'],
  [{ metrics: ['visitors'], date_range: '7d', dimensions: ['visit:colour'] }, 'dimensions[0]'],
  [{ metrics: ['visitors'], date_range: '7d', dimensions: ['visit:source', 'visit:os', 'visit:city', 'visit:device'] }, 'dimensions'],
  [{ metrics: ['visitors'], date_range: '7d', dimensions: ['time:day', 'time:hour'] }, 'dimensions[1]'],
  [{ metrics: ['visitors'], date_range: '7d', dimensions: ['event:props:'] }, 'dimensions[0]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: [['is', 'event:props', ['plan']]] }, 'filters[0][1]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: [['is', 'visit:colour', ['red']]] }, 'filters[0][1]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: ['and', [['is', 'visit:country', ['DE']], ['equals', 'event:page', ['/']]]] }, 'filters[1][1][0]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: [['is', 'visit:country', []]] }, 'filters[0][2]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: [['is', 'visit:country', [7]]] }, 'filters[0][2][0]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: [['matches', 'event:page', ['(unclosed']]] }, 'filters[0][2][0]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: [['has_done', ['is', 'visit:country', ['DE']]]] }, 'filters[0][1][1]'],
  [{ metrics: ['visitors'], date_range: '7d', filters: [['is', 'event:goal', ['No such goal']]] }, 'filters[0][2][0]'],
  [{ metrics: ['conversion_rate'], date_range: '7d' }, 'metrics[0]'],
  [{ metrics: ['time_on_page'], date_range: '7d', dimensions: ['visit:source'] }, 'metrics[0]'],
  [{ metrics: ['visitors'], date_range: '7d', order_by: [['pageviews', 'desc']] }, 'order_by[0][0]'],
  [{ metrics: ['visitors'], date_range: '7d', pagination: { limit: 10001 } }, 'pagination.limit'],
  [{ metrics: ['visitors'], date_range: '7d', pagination: { offset: -1 } }, 'pagination.offset'],
  [{ metrics: ['visitors'], date_range: '7d', include: { comparison: 'last_week' } }, 'include.comparison'],
  [{ metrics: ['visitors'], date_range: '7d', colour: 'red' }, 'colour'],
];

describe('malformed bodies', () => {
  test(`${MALFORMED.length} malformed bodies: each a 400 whose message starts with the part`, async () => {
    for (const [body, part] of MALFORMED) {
      const r = await f.query(body);
      expect([JSON.stringify(body).slice(0, 120), r.status]).toEqual([JSON.stringify(body).slice(0, 120), 400]);
      expect(Object.keys(r.body)).toEqual(['error']);
      expect(r.body.error.startsWith(`${part}: `)).toBe(true);
    }
  });

  test('invalid JSON is a 400; no credential is a 401 before the body is read', async () => {
    const bad = await f.acc.api.call('POST', `${f.sitePath}/query`, { raw: '{"metrics": [', token: f.acc.key, headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    const anon = await f.acc.api.call('POST', `${f.sitePath}/query`, { body: { nonsense: true } });
    expect(anon.status).toBe(401);
  });
});

describe('hostile strings are data', () => {
  const HOSTILE = ["'); DROP TABLE events; --", "' OR 1=1 --", '" OR ""="', '\\', "x'] FROM events; --"];

  test('in values, property keys and dimension names: a 400 or no rows, and the data intact', async () => {
    for (const h of HOSTILE) {
      const v = await f.qdata({ metrics: ['visitors'], filters: [['is', 'event:page', [h]], ['contains', 'event:props:plan', [h]]] });
      expect(v.results[0].metrics).toEqual([0]);
      const key = await f.qdata({ metrics: ['visitors'], dimensions: [`event:props:${h}`] });
      expect(key.results).toEqual([{ dimensions: ['(none)'], metrics: [5] }]);
      const dim = await f.query({ metrics: ['visitors'], date_range: OCTOBER, dimensions: [`visit:${h}`] });
      expect(dim.status).toBe(400);
      const metric = await f.query({ metrics: [h], date_range: OCTOBER });
      expect(metric.status).toBe(400);
    }
    expect((await f.qdata({ metrics: ['visitors', 'events'] })).results[0].metrics).toEqual([5, 17]);
  });
});

describe('CSV', () => {
  test('/query as CSV: a header row of dimension and metric names, RFC 4180, a file name with the site and range', async () => {
    const body = { metrics: ['visitors', 'pageviews'], date_range: OCTOBER, dimensions: ['visit:source', 'event:page'] };
    const json = await f.qdata(body);
    const r = await f.query(body, { headers: { accept: 'text/csv' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toStartWith('text/csv');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="example.com-query-2025-10-01-2025-10-31.csv"');
    expect(r.text.endsWith('\r\n')).toBe(true);
    const records: string[][] = parse(r.text);
    expect(records[0]).toEqual(['visit:source', 'event:page', 'visitors', 'pageviews']);
    expect(records.slice(1)).toEqual(json.results.map((x: any) => [...x.dimensions, ...x.metrics.map(String)]));
  });

  test('every report answers CSV with format=csv; a formula-like cell is neutralised', async () => {
    // A page path that a spreadsheet would run as a formula.
    await importAll(f.srv.url, f.acc, [{ timestamp: '2025-10-30T12:00:00Z', visitor_uid: 'z', url: 'https://example.com/x', event_type: 'custom', event_name: '=HYPERLINK("http://evil","x")', ip: '8.8.8.8' }]);
    const r = await f.query({ metrics: ['events'], date_range: OCTOBER, dimensions: ['event:name'] }, { search: '?format=csv' });
    const records: string[][] = parse(r.text);
    expect(records).toContainEqual(["'=HYPERLINK(\"http://evil\",\"x\")", '1']);
    for (const [path, columns] of [
      ['analytics/stats', ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration', 'events']],
      ['analytics/sources', ['name', 'visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'percentage']],
      ['analytics/charts', ['date', 'visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration']],
      ['goals/stats', ['id', 'name', 'visitors', 'completions', 'conversion_rate', 'revenue']],
      ['visitors', null],
    ] as const) {
      const res = await f.acc.api.call('GET', `${f.sitePath}/${path}?period=custom&from=2025-10-01&to=2025-10-31&format=csv`, { token: f.acc.token });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('x-ratelimit-limit')).toBe('600');
      const rows: string[][] = parse(res.text);
      if (columns) expect(rows[0]).toEqual([...columns]);
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.every((row) => row.length === rows[0]!.length)).toBe(true);
    }
  });
});

describe('OpenAPI', () => {
  test('the body is documented by its schema with three worked examples, each of which runs', async () => {
    const doc: any = await (await fetch(`${f.srv.url}/api/v1/openapi.json`)).json();
    const body = doc.paths['/api/v1/organizations/{orgId}/sites/{siteId}/query'].post.requestBody.content['application/json'];
    expect(Object.keys(body.schema.properties)).toEqual(['metrics', 'date_range', 'date', 'dimensions', 'filters', 'order_by', 'include', 'pagination']);
    expect(body.schema.properties.metrics.items.enum).toContain('conversion_rate');
    const examples = Object.values(body.examples) as { value: unknown }[];
    expect(examples.length).toBe(3);
    for (const e of examples) expect((await f.query(e.value)).status).toBe(200);
  });
});
