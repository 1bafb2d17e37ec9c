// The planner's choice for a query-API query: the top-line totals, the chart's series, the ranked breakdown (reports/breakdown.ts: top-K ranking,
// first-occurrence marks, entry-page completion) for one registry dimension with the breakdown metrics, the
// flat filters and the breakdown order; else metrics counted in parts on their tables (sql/query-parts.ts).
// The stats, charts and breakdown reports are presets of these kinds, so their answers and /query's are the same numbers.
import type { ApiQuery } from '../parse/query-parse.ts';
import type { ApiMetric } from '../parse/query-body.ts';
import { flatFilters } from '../parse/filter-tree.ts';
import type { Paging } from '../sql/paging.ts';
import type { Interval } from '../sql/buckets.ts';

/** What a ranked breakdown row carries (contract §8). */
export const RANKED_METRICS: readonly ApiMetric[] = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'percentage', 'time_on_page', 'scroll_depth'];

/** What the top-line report counts (contract §8 stats) and what its chart counts per bucket. */
export const TOTALS_METRICS: readonly ApiMetric[] = ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration', 'events'];
export const SERIES_METRICS: readonly ApiMetric[] = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'];
/** What the revenue report counts per query (its totals, or per bucket of its points); the rest of the report is beside. */
export const REVENUE_METRICS: readonly ApiMetric[] = ['revenue', 'orders', 'average_order_value'];

export type Ranked = { kind: 'ranked'; dimension: string; paging: Paging; pageMetrics: boolean };
export type Series = { kind: 'series'; interval: Interval };
/**
 * `totals`: no dimension, the top-line metrics (reports/aggregate.ts, visitors from the marks where they hold);
 * `series`: time alone with every bucket, the chart's metrics (reports/charts.ts); `ranked`: a breakdown;
 * `revenue`: revenue, orders and average order value in total or per bucket (reports/revenue.ts, over the
 * purchases registry when unfiltered). Realtime always goes to the parts: it counts the visitors on the events.
 */
export type Strategy = Ranked | Series | { kind: 'totals' } | { kind: 'parts' } | { kind: 'revenue'; interval: Interval | null };

export function strategyFor(q: Pick<ApiQuery, 'dimensions' | 'metrics' | 'filter' | 'orderBy' | 'limit' | 'offset' | 'include' | 'period'>): Strategy {
  if (q.period.period === 'realtime') return { kind: 'parts' };
  const flat = flatFilters(q.filter) !== null;
  const only = (allowed: readonly string[]) => q.metrics.every((m) => allowed.includes(m));
  if (!q.dimensions.length && flat && only(REVENUE_METRICS)) return { kind: 'revenue', interval: null };
  if (!q.dimensions.length && flat && only(TOTALS_METRICS)) return { kind: 'totals' };
  const time = q.dimensions[0];
  // Every bucket in time order, as the chart (and the revenue report's points) list them.
  const seriesShape = q.dimensions.length === 1 && time?.kind === 'time' && flat && q.include.timeLabels && !q.include.comparison
    && q.offset === 0 && (q.orderBy.length === 0 || (q.orderBy.length === 1 && q.orderBy[0]!.key === time.name && !q.orderBy[0]!.desc));
  if (seriesShape && only(SERIES_METRICS)) return { kind: 'series', interval: time.interval };
  if (seriesShape && only(REVENUE_METRICS)) return { kind: 'revenue', interval: time.interval };
  if (q.include.comparison) return { kind: 'parts' };
  const [d, ...more] = q.dimensions;
  if (!d || more.length || d.kind !== 'column') return { kind: 'parts' };
  if (!only(RANKED_METRICS)) return { kind: 'parts' };
  if (flatFilters(q.filter) === null) return { kind: 'parts' };
  // The ranked order is visitors descending (ties: pageviews, then the value): /query's default when visitors come first.
  const byVisitors = q.orderBy.length === 1 && q.orderBy[0]!.key === 'visitors' && q.orderBy[0]!.desc;
  const defaultOrder = byVisitors || (q.orderBy.length === 0 && q.metrics[0] === 'visitors');
  if (!defaultOrder || q.offset % q.limit !== 0) return { kind: 'parts' };
  const pageMetrics = q.metrics.includes('time_on_page') || q.metrics.includes('scroll_depth');
  return { kind: 'ranked', dimension: d.dim.name, paging: { page: q.offset / q.limit + 1, limit: q.limit }, pageMetrics };
}
