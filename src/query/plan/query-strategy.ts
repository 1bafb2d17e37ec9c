// The planner's choice for a query-API query: the ranked breakdown (reports/breakdown.ts: top-K ranking,
// first-occurrence marks, entry-page completion) for one registry dimension with the breakdown metrics, the
// flat filters and the breakdown order; else metrics counted in parts on their tables (sql/query-parts.ts).
// The breakdown reports are presets of the first kind, so their answers and /query's are the same numbers.
import type { ApiQuery } from '../parse/query-parse.ts';
import type { ApiMetric } from '../parse/query-body.ts';
import { flatFilters } from '../parse/filter-tree.ts';
import type { Paging } from '../sql/paging.ts';

/** What a ranked breakdown row carries (contract §8). */
export const RANKED_METRICS: readonly ApiMetric[] = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'percentage', 'time_on_page', 'scroll_depth'];

export type Ranked = { kind: 'ranked'; dimension: string; paging: Paging; pageMetrics: boolean };
export type Strategy = Ranked | { kind: 'parts' };

export function strategyFor(q: Pick<ApiQuery, 'dimensions' | 'metrics' | 'filter' | 'orderBy' | 'limit' | 'offset' | 'include'>): Strategy {
  if (q.include.comparison) return { kind: 'parts' };
  const [d, ...more] = q.dimensions;
  if (!d || more.length || d.kind !== 'column') return { kind: 'parts' };
  if (!q.metrics.every((m) => RANKED_METRICS.includes(m))) return { kind: 'parts' };
  if (flatFilters(q.filter) === null) return { kind: 'parts' };
  // The ranked order is visitors descending (ties: pageviews, then the value): /query's default when visitors come first.
  const byVisitors = q.orderBy.length === 1 && q.orderBy[0]!.key === 'visitors' && q.orderBy[0]!.desc;
  const defaultOrder = byVisitors || (q.orderBy.length === 0 && q.metrics[0] === 'visitors');
  if (!defaultOrder || q.offset % q.limit !== 0) return { kind: 'parts' };
  const pageMetrics = q.metrics.includes('time_on_page') || q.metrics.includes('scroll_depth');
  return { kind: 'ranked', dimension: d.dim.name, paging: { page: q.offset / q.limit + 1, limit: q.limit }, pageMetrics };
}
