// Revenue (contract §8): orders deduplicated by order_id (plan/orders-source.ts), totals in the site's currency
// (no FX conversion), every currency listed apart in by_currency, a zero-filled series, and the comparison
// period. The report is the preset of a revenue query (parse/presets.ts): POST /query asking revenue, orders
// or average order value in total or per time bucket is answered here too (plan/query-strategy.ts), so both
// give the same figures. Metrics come from the registry (sql/metrics.ts, table `orders`).
import { dialectOf, type Runner } from '../sql/dialect.ts';
import { planFor, type Scope } from '../plan/planner.ts';
import { bucketLabelSql, bucketLabels, bucketSql, type Interval } from '../sql/buckets.ts';
import { changes } from './aggregate.ts';
import { averageOrderValue, conversionRate, finish, money, selectMetrics, type Metric } from '../sql/metrics.ts';
import { comparisonRange, rangeEcho, type Comparison } from '../parse/period.ts';
import { one, rows } from '../run.ts';
import { frag, sql } from '../../storage/sql.ts';

const ORDER_METRICS = ['revenue', 'orders', 'purchasers'] as const satisfies Metric[];

export type RevenueTotals = { revenue: number; orders: number; average_order_value: number; purchasers: number; conversion_rate: number };
/** A bucket's figures, revenue unrounded (a query's average order value is of the revenue as reported). */
export type RevenuePoint = { date: string; revenue: number; orders: number };

/**
 * One pass over the scope's orders: per currency (metrics, by_currency) and per local bucket and
 * currency (points), with the scope's visitors for the conversion rate alongside (unless `conversion` is false:
 * the query API asks no conversion rate of its revenue queries).
 */
export async function revenueOf(db: Runner, scope: Scope, interval: Interval, conversion = true) {
  const plan = planFor(db, scope);
  const d = dialectOf(scope);
  const [groups, v] = await Promise.all([
    rows(db, sql`SELECT ${bucketLabelSql(interval, 'b', d)} AS bucket, currency, ${frag(ORDER_METRICS.join(', '))} FROM (
      SELECT ${bucketSql(interval, scope.range, 'ts', d)} AS b, currency, ${selectMetrics(ORDER_METRICS, 'orders')}
      FROM ${plan.orders()} GROUP BY GROUPING SETS ((b, currency), (currency)))`),
    conversion ? plan.visitors('visits').then((q) => one(db, q)) : undefined,
  ]);
  const cur = scope.site.currency;
  const perCurrency = groups.filter((g) => g.bucket === null);
  const own = finish(ORDER_METRICS, perCurrency.find((g) => g.currency === cur));
  const metrics: RevenueTotals = {
    revenue: own.revenue!,
    orders: own.orders!,
    average_order_value: averageOrderValue(own.revenue!, own.orders!),
    purchasers: own.purchasers!,
    conversion_rate: conversionRate(own.purchasers!, Number(v?.visitors ?? 0)),
  };
  const byBucket = new Map(groups.filter((g) => g.bucket !== null && g.currency === cur).map((g) => [g.bucket as string, g]));
  const points: RevenuePoint[] = bucketLabels(scope.range, interval).map((date) => ({
    date, revenue: Number(byBucket.get(date)?.revenue ?? 0), orders: Number(byBucket.get(date)?.orders ?? 0),
  }));
  const byCurrency = perCurrency
    .map((g) => ({ currency: g.currency as string, revenue: money(g.revenue), orders: Number(g.orders) }))
    .sort((a, b) => b.revenue - a.revenue || a.currency.localeCompare(b.currency));
  return { metrics, points, byCurrency };
}

export async function revenue(db: Runner, scope: Scope, compare: Comparison, interval: Interval) {
  const prevRange = comparisonRange(scope.range, compare);
  const [current, previous] = await Promise.all([
    revenueOf(db, scope, interval),
    prevRange ? revenueOf(db, { ...scope, range: prevRange }, interval) : Promise.resolve(null),
  ]);
  return {
    range: rangeEcho(scope.range),
    currency: scope.site.currency,
    metrics: current.metrics,
    previous: previous?.metrics ?? null,
    change: changes(current.metrics, previous?.metrics ?? null),
    interval,
    points: current.points.map((p) => ({ date: p.date, revenue: money(p.revenue), orders: p.orders })),
    by_currency: current.byCurrency,
  };
}
