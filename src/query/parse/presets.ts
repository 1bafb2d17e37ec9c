// The reports as query-API queries (presets): each breakdown endpoint is one dimension with the breakdown
// metrics, run by the same stages as POST /query (plan/query-strategy.ts picks the ranked breakdown for both).
import type { ApiQuery } from './query-parse.ts';
import type { ApiMetric } from './query-body.ts';
import { queryDimension, type QueryDim } from './query-dimensions.ts';
import type { Filter } from './filters.ts';
import type { Paging } from '../sql/paging.ts';

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
    filter: filters.length ? { op: 'and', children: filters.map((f, i) => ({ op: 'leaf', filter: f, path: `filters[${i}]` })) } : null,
    period: {}, orderBy: [{ key: 'visitors', desc: true }], include: { totals: false, comparison: null, timeLabels: false },
    limit: paging.limit, offset: (paging.page - 1) * paging.limit,
    normalised: { metrics, dimensions: [d.name] },
  };
}
