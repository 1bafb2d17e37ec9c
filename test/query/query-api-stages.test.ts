// The query API's stages in process, no server: parse (body → query, or an invalid QueryError naming the part),
// plan (the strategy per shape), SQL (property keys and values bound, identifiers from the registry only),
// run on an empty temp DuckDB.
import { describe, expect, test } from 'bun:test';
import { withTempStore } from '../helpers/temp-store.ts';
import { parseQuery } from '../../src/query/parse/query-parse.ts';
import { QueryError } from '../../src/query/errors.ts';
import { strategyFor } from '../../src/query/plan/query-strategy.ts';
import { planFor } from '../../src/query/plan/planner.ts';
import { queryParts } from '../../src/query/sql/query-parts.ts';
import { runQuery, scopeFilters } from '../../src/query/reports/query.ts';
import { dayRange } from '../../src/query/parse/period.ts';

const SITE = { id: '6f1c2a52-8f0e-4c4e-9d7a-3b5e1f0a9c11', timezone: 'Europe/Berlin', currency: 'EUR', created_at: '2025-01-01T00:00:00.000Z' };
const GOALS = [{ id: '0b5a4a0e-3a8e-4a56-9c57-6f1d2b3c4d5e', name: 'Signup', type: 'event', event_name: 'Signup' }];
const HOSTILE = "'); DROP TABLE events; --";
const MARCH = ['2025-03-01', '2025-03-31'];

const store = withTempStore('tern-query-api-');

const parse = (body: Record<string, unknown>) => parseQuery({ date_range: MARCH, metrics: ['visitors'], ...body }, GOALS);
const refusal = (body: Record<string, unknown>) => {
  try {
    parse(body);
  } catch (e) {
    expect(e).toBeInstanceOf(QueryError);
    return (e as QueryError).message;
  }
  throw new Error('accepted');
};

describe('parse', () => {
  test('a body becomes typed dimensions, a filter tree, a custom period and defaults', () => {
    const q = parse({ dimensions: ['visit:source', 'event:props:plan', 'time:day'], filters: ['not', ['is', 'event:goal', ['Signup']]] });
    expect(q.dimensions.map((d) => d.kind)).toEqual(['column', 'prop', 'time']);
    expect(q.period).toEqual({ period: 'custom', from: '2025-03-01', to: '2025-03-31' });
    expect(q.filter).toMatchObject({ op: 'not', child: { op: 'leaf', path: 'filters[1]', filter: { target: { kind: 'goal', goals: [{ type: 'event', event_name: 'Signup' }] } } } });
    expect([q.limit, q.offset]).toEqual([10000, 0]);
  });

  test('each bad part is named by its path', () => {
    expect(refusal({ dimensions: ['visit:colour'] })).toBe("dimensions[0]: unknown dimension 'visit:colour'");
    expect(refusal({ filters: ['and', [['is', 'visit:country', ['DE']], ['is', 'visit:colour', ['red']]]] })).toBe("filters[1][1][1]: unknown dimension 'visit:colour'");
    expect(refusal({ filters: [['has_done', ['is', 'visit:country', ['DE']]]] })).toStartWith('filters[0][1][1]: has_done tests events');
    expect(refusal({ metrics: ['conversions'] })).toStartWith('metrics[0]: conversions needs');
    expect(refusal({ order_by: [['visit:source', 'asc']] })).toStartWith('order_by[0][0]:');
  });
});

describe('plan', () => {
  test('one registry dimension with the breakdown metrics is the ranked breakdown; anything else is counted in parts', () => {
    expect(strategyFor(parse({ dimensions: ['visit:source'], pagination: { limit: 10, offset: 20 } }))).toEqual({ kind: 'ranked', dimension: 'source', paging: { page: 3, limit: 10 }, pageMetrics: false });
    expect(strategyFor(parse({ dimensions: ['visit:source', 'visit:country'] })).kind).toBe('parts');
    expect(strategyFor(parse({ dimensions: ['visit:source'], metrics: ['visitors', 'revenue'] })).kind).toBe('parts');
    expect(strategyFor(parse({ dimensions: ['visit:source'], filters: ['or', [['is', 'visit:country', ['DE']], ['is', 'visit:country', ['AT']]]] })).kind).toBe('parts');
    expect(strategyFor(parse({ dimensions: ['visit:source'], order_by: [['visit:source', 'asc']] })).kind).toBe('parts');
  });
});

describe('SQL', () => {
  test('a property key, filter values and goal names are bound parameters, never in the text', () => {
    const q = parse({ dimensions: [`event:props:${HOSTILE}`, 'event:goal'], metrics: ['visitors', 'conversions'], filters: [['contains', 'event:page', [HOSTILE]]] });
    const range = dayRange('custom', '2025-03-01', '2025-03-31', SITE.timezone);
    const plan = planFor(store.db, { site: SITE, range, files: store.files, filters: scopeFilters(q.filter) });
    const parts = queryParts({ plan, dims: q.dimensions, metrics: q.metrics, goals: GOALS, conversionGoals: null });
    for (const p of parts) {
      expect(p.sql.sql).not.toContain('DROP');
      expect(p.sql.sql).not.toContain('Signup');
      expect(p.sql.params).toContain(HOSTILE);
    }
  });

  test('a nested filter over both levels reaches the visits as a lookup of their events', () => {
    const q = parse({ filters: ['or', [['is', 'visit:country', ['DE']], ['contains', 'event:page', ['/blog']]]] });
    const range = dayRange('custom', '2025-03-01', '2025-03-31', SITE.timezone);
    const visits = planFor(store.db, { site: SITE, range, files: store.files, filters: scopeFilters(q.filter) }).visits();
    expect(visits.sql).toContain('visit_id IN (SELECT visit_id FROM');
    expect(visits.params).toEqual(expect.arrayContaining(['DE', '/blog']));
  });
});

describe('run', () => {
  test('an empty site: zero metrics, no rows, every bucket with time_labels', async () => {
    const site = { ...SITE };
    const total = await runQuery(store, site, GOALS, parse({ metrics: ['visitors', 'pageviews', 'bounce_rate', 'revenue'] }));
    expect(total.results).toEqual([{ dimensions: [], metrics: [0, 0, 0, 0] }]);
    const byDay = await runQuery(store, site, GOALS, parse({ dimensions: ['time:day'], include: { time_labels: true, totals: true } }));
    expect(byDay.results.length).toBe(31);
    expect(byDay.meta.time_labels![0]).toBe('2025-03-01');
    expect(byDay.totals).toEqual({ visitors: 0 });
    const pairs = await runQuery(store, site, GOALS, parse({ dimensions: ['visit:source', 'event:props:plan'], metrics: ['visitors', 'bounce_rate', 'conversion_rate'], filters: [['is', 'event:goal', ['Signup']]] }));
    expect(pairs.results).toEqual([]);
    expect(pairs.meta.total_rows).toBe(0);
  });
});
