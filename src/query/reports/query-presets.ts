// The query API's answers the planner gives to a report's own builder (plan/query-strategy.ts): the ranked
// breakdown, the top-line totals, the chart's series. The reports call these as presets; POST /query of the
// same shape gets the same rows, reshaped as dimensions and metrics.
import type { Runner } from '../sql/dialect.ts';
import type { Scope } from '../plan/scope.ts';
import { comparisonRange, rangeEcho, type Range } from '../parse/period.ts';
import type { ApiQuery } from '../parse/query-parse.ts';
import { flatFilters } from '../parse/filter-tree.ts';
import { change } from '../sql/metrics.ts';
import { strategyFor } from '../plan/query-strategy.ts';
import { breakdown } from './breakdown.ts';
import { stats, totals } from './aggregate.ts';
import { chart } from './charts.ts';
import type { QueryAnswer } from './query.ts';

/**
 * A query the planner answers with the ranked breakdown (a breakdown report's preset, or /query of that
 * shape): the report's own answer, `{range, dimension, results, pagination}`.
 */
export async function rankedReport(db: Runner, scope: Omit<Scope, 'filters'>, q: ApiQuery) {
  const s = strategyFor(q);
  if (s.kind !== 'ranked') throw new Error('not a ranked breakdown');
  return breakdown(db, { ...scope, filters: flatFilters(q.filter)! }, s.dimension, s.paging, s.pageMetrics);
}

/** The top-line report (`{range, metrics, previous, change}`) of a query the planner answers with the totals. */
export async function totalsReport(db: Runner, scope: Omit<Scope, 'filters'>, q: ApiQuery) {
  if (strategyFor(q).kind !== 'totals') throw new Error('not a totals query');
  return stats(db, { ...scope, filters: flatFilters(q.filter)! }, q.include.comparison ?? 'none');
}

/** The chart (`{range, interval, points}`) of a query the planner answers with the series. */
export async function seriesReport(db: Runner, scope: Omit<Scope, 'filters'>, q: ApiQuery) {
  const s = strategyFor(q);
  if (s.kind !== 'series') throw new Error('not a series query');
  return chart(db, { ...scope, filters: flatFilters(q.filter)! }, s.interval);
}

/** A query answered by the top-line totals or the chart's series (reports/aggregate.ts, charts.ts). */
export async function byReport(db: Runner, q: ApiQuery, scope: Omit<Scope, 'filters'>, kind: 'totals' | 'series'): Promise<QueryAnswer> {
  const pick = (t: Record<string, any>) => q.metrics.map((m) => (t[m] ?? 0) as number);
  const full = { ...scope, filters: flatFilters(q.filter)! };
  const totalsOfRange = (range: Range) => totals(db, { ...full, range }) as Promise<Record<string, any>>;
  const prevRange = q.include.comparison ? comparisonRange(scope.range, q.include.comparison) : null;
  const [t, prev, series] = await Promise.all([
    kind === 'totals' || q.include.totals ? totalsOfRange(scope.range) : Promise.resolve(null),
    prevRange ? totalsOfRange(prevRange) : Promise.resolve(null),
    kind === 'series' ? seriesReport(db, scope, q) : Promise.resolve(null),
  ]);
  const rowsOf = series ? series.points.map((p) => ({ dimensions: [p.date], metrics: pick(p) })) : [{ dimensions: [], metrics: pick(t!) }];
  const totalsObj = q.include.totals && t ? Object.fromEntries(q.metrics.map((m) => [m, t[m] ?? 0])) : undefined;
  return {
    results: rowsOf.slice(q.offset, q.offset + q.limit),
    ...(totalsObj ? { totals: totalsObj } : {}),
    ...(prev && prevRange ? {
      comparison: {
        range: rangeEcho(prevRange),
        ...(q.include.totals ? { totals: Object.fromEntries(q.metrics.map((m) => [m, prev[m] ?? 0])) } : {}),
        results: [{ dimensions: [], metrics: pick(prev), change: pick(t!).map((v, i) => change(v, pick(prev)[i]!)) }],
      },
    } : {}),
    meta: { range: rangeEcho(scope.range), total_rows: rowsOf.length, ...(series ? { time_labels: series.points.map((p) => p.date) } : {}) },
    query: q.normalised,
  };
}
