// The reports as query-API queries (presets): stats is the top-line metrics without dimensions, charts the
// series of one time dimension, each breakdown endpoint one dimension with the breakdown metrics, revenue the
// revenue series, realtime two queries over the last 30 minutes, goals the event:goal dimension; run by the same
// stages as POST /query (plan/query-strategy.ts picks the same strategy for the preset and the equal /query).
import type { ApiQuery } from './query-parse.ts';
import type { ApiMetric } from './query-body.ts';
import { queryDimension, type QueryDim } from './query-dimensions.ts';
import type { Filter } from './filter-types.ts';
import type { Paging } from '../sql/paging.ts';
import type { Interval } from '../sql/buckets.ts';
import type { Comparison } from './period.ts';
import { REVENUE_METRICS, SERIES_METRICS, TOTALS_METRICS } from '../plan/query-strategy.ts';

const BREAKDOWN_METRICS: ApiMetric[] = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'percentage'];
const PAGE_METRICS: ApiMetric[] = ['time_on_page', 'scroll_depth'];

/** The query API's name of a registry dimension (page and hostname are event attributes, the rest the visit's). */
export const apiName = (registryName: string) => (registryName === 'page' || registryName === 'hostname' ? `event:${registryName}` : `visit:${registryName}`);

/**
 * A breakdown report (contract §8) as a query: `dimension` of the registry, the report's filters (already
 * resolved: goal ids, regular expressions) as an AND, its page as offset and limit; pages add the page metrics.
 */
export function breakdownPreset(dimension: string, filters: Filter[], paging: Paging, pageMetrics: boolean): ApiQuery {
  const d = queryDimension(apiName(dimension)) as QueryDim;
  const metrics = pageMetrics ? [...BREAKDOWN_METRICS, ...PAGE_METRICS] : BREAKDOWN_METRICS;
  return {
    metrics, dimensions: [d],
    filter: andOf(filters),
    period: {}, orderBy: [{ key: 'visitors', desc: true }], include: { totals: false, comparison: null, timeLabels: false },
    limit: paging.limit, offset: (paging.page - 1) * paging.limit,
    normalised: { metrics, dimensions: [d.name] },
  };
}

const andOf = (filters: Filter[]): ApiQuery['filter'] =>
  filters.length ? { op: 'and', children: filters.map((f, i) => ({ op: 'leaf', filter: f, path: `filters[${i}]` })) } : null;

/** The stats report: the top-line metrics, compared as asked (none: no previous period). */
export function statsPreset(filters: Filter[], compare: Comparison): ApiQuery {
  const metrics = [...TOTALS_METRICS];
  return {
    metrics, dimensions: [], filter: andOf(filters), period: {}, orderBy: [],
    include: { totals: false, comparison: compare === 'none' ? null : compare, timeLabels: false }, limit: 1, offset: 0,
    normalised: { metrics, dimensions: [] },
  };
}

/** The charts report: every bucket of `interval`. */
export function seriesPreset(filters: Filter[], interval: Interval): ApiQuery {
  const metrics = [...SERIES_METRICS];
  const d = queryDimension(`time:${interval}`) as QueryDim;
  return {
    metrics, dimensions: [d], filter: andOf(filters), period: {}, orderBy: [],
    include: { totals: false, comparison: null, timeLabels: true }, limit: 10_000, offset: 0,
    normalised: { metrics, dimensions: [d.name] },
  };
}

/** The revenue report's series: revenue, orders and average order value per bucket of `interval`, every bucket present. */
export function revenuePreset(filters: Filter[], interval: Interval): ApiQuery {
  const metrics = [...REVENUE_METRICS];
  const d = queryDimension(`time:${interval}`) as QueryDim;
  return {
    metrics, dimensions: [d], filter: andOf(filters), period: {}, orderBy: [],
    include: { totals: false, comparison: null, timeLabels: true }, limit: 10_000, offset: 0,
    normalised: { metrics, dimensions: [d.name] },
  };
}

const REALTIME = { period: 'realtime' } as const;

/**
 * The realtime report: the visitors and pageviews of the last 30 minutes (counted on the events: who is active
 * now), and the ten pages most visitors viewed in them (ties by page).
 */
export function realtimePresets(filters: Filter[], topPages: number): { totals: ApiQuery; pages: ApiQuery } {
  const totals: ApiQuery['metrics'] = ['visitors', 'pageviews'];
  const page = queryDimension('event:page') as QueryDim;
  const type = queryDimension('event:type') as QueryDim & { kind: 'column' };
  const pageviews: Filter = {
    dimension: type.name, operator: 'is', values: ['pageview'],
    target: { kind: 'column', level: type.dim.level, column: type.dim.column, onEveryEvent: false },
  };
  const include = { totals: false, comparison: null, timeLabels: false };
  return {
    totals: { metrics: totals, dimensions: [], filter: andOf(filters), period: REALTIME, orderBy: [], include, limit: 1, offset: 0, normalised: { metrics: totals, dimensions: [] } },
    pages: {
      metrics: ['visitors'], dimensions: [page], filter: andOf([...filters, pageviews]), period: REALTIME,
      orderBy: [{ key: 'visitors', desc: true }, { key: page.name, desc: false }], include, limit: topPages, offset: 0,
      normalised: { metrics: ['visitors'], dimensions: [page.name] },
    },
  };
}

/** What the goals reports count per goal: converting visitors, completions, and the revenue the completing events carry. */
const GOAL_METRICS: ApiQuery['metrics'] = ['visitors', 'conversions', 'completion_revenue'];

/** The goals report: per goal (event:goal), and per goal and bucket of `interval` for one goal's chart. */
export function goalsPreset(filters: Filter[], interval?: Interval): ApiQuery {
  const dims = [queryDimension('event:goal') as QueryDim, ...(interval ? [queryDimension(`time:${interval}`) as QueryDim] : [])];
  return {
    metrics: GOAL_METRICS, dimensions: dims, filter: andOf(filters), period: {}, orderBy: [],
    include: { totals: false, comparison: null, timeLabels: interval !== undefined }, limit: 10_000, offset: 0,
    normalised: { metrics: GOAL_METRICS, dimensions: dims.map((d) => d.name) },
  };
}
