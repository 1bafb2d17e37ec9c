// The reports as query-API queries (presets): stats is the top-line metrics without dimensions, charts the
// series of one time dimension, each breakdown endpoint one dimension with the breakdown metrics; run by the same
// stages as POST /query (plan/query-strategy.ts picks the same strategy for the preset and the equal /query).
import type { ApiQuery } from './query-parse.ts';
import type { ApiMetric } from './query-body.ts';
import { queryDimension, type QueryDim } from './query-dimensions.ts';
import type { Filter } from './filters.ts';
import type { Paging } from '../sql/paging.ts';
import type { Interval } from '../sql/buckets.ts';
import type { Comparison } from './period.ts';
import { SERIES_METRICS, TOTALS_METRICS } from '../plan/query-strategy.ts';

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
