// Revenue (contract §8): orders deduplicated by order_id, totals in the site's currency (no FX conversion),
// every currency listed apart in by_currency, a zero-filled series, and the comparison period.
import { dialectOf, type Runner } from '../sql/dialect.ts';
import { planFor, type Plan, type Scope } from '../plan/planner.ts';
import { bucketLabelSql, bucketLabels, bucketSql, type Interval } from '../sql/buckets.ts';
import { changes } from './aggregate.ts';
import { conversionRate, money } from '../sql/metrics.ts';
import { comparisonRange, rangeEcho, type Comparison } from '../parse/period.ts';
import { one, rows } from '../run.ts';
import { sql, type Fragment } from '../../storage/sql.ts';

/**
 * One row per order: paid events in the scope (from the purchases registry when unfiltered), an order_id
 * counted at its first occurrence only — also when that occurrence lies before the range, so a resent
 * order never counts again.
 */
function orders(plan: Plan): Fragment {
  const { scope } = plan;
  const paid = plan.paidEvents();
  const earlier = plan.earlierOrders();
  return sql`(SELECT ts, visitor_id, revenue::DOUBLE AS revenue, coalesce(upper(currency), ${scope.site.currency}) AS currency
    FROM ${paid}
    WHERE order_id IS NULL OR order_id NOT IN (${earlier})
    QUALIFY order_id IS NULL OR row_number() OVER (PARTITION BY order_id ORDER BY ts) = 1)`;
}

type Totals = { revenue: number; orders: number; average_order_value: number; purchasers: number; conversion_rate: number };

/**
 * One pass over the scope's orders: per currency (metrics, by_currency) and per local bucket and
 * currency (points), with the scope's visitors for the conversion rate alongside.
 */
async function revenueOf(db: Runner, scope: Scope, interval: Interval) {
  const plan = planFor(db, scope);
  const d = dialectOf(scope);
  const [groups, v] = await Promise.all([
    rows(db, sql`SELECT ${bucketLabelSql(interval, 'b', d)} AS bucket, currency, revenue, orders, purchasers FROM (
      SELECT ${bucketSql(interval, scope.range, 'ts', d)} AS b, currency, sum(revenue) AS revenue, count(*) AS orders,
        count(DISTINCT visitor_id) AS purchasers
      FROM ${orders(plan)} GROUP BY GROUPING SETS ((b, currency), (currency)))`),
    plan.visitors('visits').then((q) => one(db, q)),
  ]);
  const cur = scope.site.currency;
  const perCurrency = groups.filter((g) => g.bucket === null);
  const own = perCurrency.find((g) => g.currency === cur);
  const revenue = money(own?.revenue ?? 0);
  const count = Number(own?.orders ?? 0);
  const purchasers = Number(own?.purchasers ?? 0);
  const metrics: Totals = {
    revenue,
    orders: count,
    average_order_value: count ? money(revenue / count) : 0,
    purchasers,
    conversion_rate: conversionRate(purchasers, Number(v?.visitors ?? 0)),
  };
  const byBucket = new Map(groups.filter((g) => g.bucket !== null && g.currency === cur).map((g) => [g.bucket as string, g]));
  const byCurrency = perCurrency
    .map((g) => ({ currency: g.currency as string, revenue: money(g.revenue), orders: Number(g.orders) }))
    .sort((a, b) => b.revenue - a.revenue || a.currency.localeCompare(b.currency));
  return { metrics, byBucket, byCurrency };
}

export async function revenue(db: Runner, scope: Scope, compare: Comparison, interval: Interval) {
  const prevRange = comparisonRange(scope.range, compare);
  const labels = bucketLabels(scope.range, interval);
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
    points: labels.map((date) => ({ date, revenue: money(current.byBucket.get(date)?.revenue ?? 0), orders: Number(current.byBucket.get(date)?.orders ?? 0) })),
    by_currency: current.byCurrency,
  };
}
