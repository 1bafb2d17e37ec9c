// The query API's answers the planner gives to a report's own builder (plan/query-strategy.ts): the ranked
// breakdown, the top-line totals, the chart's series, the revenue totals and series. The reports call these as
// presets; POST /query of the same shape gets the same rows, reshaped as dimensions and metrics.
import type { Runner } from '../sql/dialect.ts';
import type { Scope } from '../plan/scope.ts';
import { comparisonRange, rangeEcho, type Comparison, type Range } from '../parse/period.ts';
import type { ApiQuery } from '../parse/query-parse.ts';
import { flatFilters } from '../parse/filter-tree.ts';
import { averageOrderValue, change, money } from '../sql/metrics.ts';
import { strategyFor, type Strategy } from '../plan/query-strategy.ts';
import type { Interval } from '../sql/buckets.ts';
import { revenue, revenueOf, type RevenueTotals } from './revenue.ts';
import { breakdown } from './breakdown.ts';
import { stats, totals } from './aggregate.ts';
import { chart } from './charts.ts';
import type { QueryAnswer } from './query-answer.ts';

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

/** The revenue report (`{range, currency, metrics, previous, change, interval, points, by_currency}`) of a revenue series query, compared as asked. */
export async function revenueReport(db: Runner, scope: Omit<Scope, 'filters'>, q: ApiQuery, compare: Comparison) {
  const s = strategyFor(q);
  if (s.kind !== 'revenue' || !s.interval) throw new Error('not a revenue series');
  return revenue(db, { ...scope, filters: flatFilters(q.filter)! }, compare, s.interval);
}

/** Figures of a totals, series or revenue query: its totals over a range, and for a series its points. */
type Figures = { totals: (range: Range) => Promise<Record<string, any>>; points?: () => Promise<{ date: string; figures: Record<string, any> }[]> };

function figuresOf(db: Runner, q: ApiQuery, full: Scope, s: Strategy): Figures {
  if (s.kind === 'revenue') {
    // Totals alone need no points: months keep any range to few buckets.
    const ofRange = (range: Range, interval: Interval) => revenueOf(db, { ...full, range }, interval, false);
    const shown = (t: RevenueTotals) => ({ revenue: t.revenue, orders: t.orders, average_order_value: t.average_order_value });
    return {
      totals: async (range) => shown((await ofRange(range, 'month')).metrics),
      ...(s.interval ? {
        points: async () => (await ofRange(full.range, s.interval!)).points.map((p) => ({
          date: p.date, figures: { revenue: money(p.revenue), orders: p.orders, average_order_value: averageOrderValue(p.revenue, p.orders) },
        })),
      } : {}),
    };
  }
  return {
    totals: (range) => totals(db, { ...full, range }) as Promise<Record<string, any>>,
    ...(s.kind === 'series' ? { points: async () => (await chart(db, full, s.interval)).points.map((p) => ({ date: p.date, figures: p })) } : {}),
  };
}

/** A query answered by the top-line totals, the chart's series or the revenue report (reports/aggregate.ts, charts.ts, revenue.ts). */
export async function byReport(db: Runner, q: ApiQuery, scope: Omit<Scope, 'filters'>, s: Strategy & { kind: 'totals' | 'series' | 'revenue' }): Promise<QueryAnswer> {
  const pick = (t: Record<string, any>) => q.metrics.map((m) => (t[m] ?? 0) as number);
  const f = figuresOf(db, q, { ...scope, filters: flatFilters(q.filter)! }, s);
  const prevRange = q.include.comparison ? comparisonRange(scope.range, q.include.comparison) : null;
  const [t, prev, series] = await Promise.all([
    !f.points || q.include.totals ? f.totals(scope.range) : Promise.resolve(null),
    prevRange ? f.totals(prevRange) : Promise.resolve(null),
    f.points ? f.points() : Promise.resolve(null),
  ]);
  const rowsOf = series ? series.map((p) => ({ dimensions: [p.date], metrics: pick(p.figures) })) : [{ dimensions: [], metrics: pick(t!) }];
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
    meta: { range: rangeEcho(scope.range), total_rows: rowsOf.length, ...(series ? { time_labels: series.map((p) => p.date) } : {}) },
    query: q.normalised,
  };
}
