// Revenue (contract §8): orders deduplicated by order_id, totals in the site's currency (no FX conversion),
// every currency listed apart in by_currency, a zero-filled series, and the comparison period.
import type { Database } from '../storage/database.ts';
import { tableSource } from '../storage/sources.ts';
import { eventsSource, visitsSource, type Scope } from './scope.ts';
import { bucketLabels, bucketSql, type Interval } from './buckets.ts';
import { changes } from './aggregate.ts';
import { conversionRate, money } from './metrics.ts';
import { comparisonRange, rangeEcho, type Comparison } from './period.ts';
import { one, rows } from './run.ts';
import { frag, sql, type Fragment } from './sql.ts';

const EPOCH = '1970-01-01T00:00:00.000Z';

/**
 * One row per order: events carrying revenue in the scope, an order_id counted at its first occurrence
 * only — also when that occurrence lies before the range, so a resent order never counts again.
 */
function orders(scope: Scope): Fragment {
  const paid = eventsSource(scope, frag('revenue IS NOT NULL'));
  const earlier = tableSource('events', scope.site.id, { fromUtc: EPOCH, toUtc: scope.range.fromUtc });
  return sql`(SELECT ts, visitor_id, revenue::DOUBLE AS revenue, coalesce(upper(currency), ${scope.site.currency}) AS currency
    FROM ${paid}
    WHERE order_id IS NULL OR order_id NOT IN (SELECT order_id FROM ${earlier} WHERE order_id IS NOT NULL AND revenue IS NOT NULL)
    QUALIFY order_id IS NULL OR row_number() OVER (PARTITION BY order_id ORDER BY ts) = 1)`;
}

async function revenueMetrics(db: Database, scope: Scope) {
  const cur = scope.site.currency;
  const [o, v] = await Promise.all([
    one(db, sql`SELECT sum(revenue) FILTER (WHERE currency = ${cur}) AS revenue, count(*) FILTER (WHERE currency = ${cur}) AS orders,
      count(DISTINCT visitor_id) FILTER (WHERE currency = ${cur}) AS purchasers FROM ${orders(scope)}`),
    one(db, sql`SELECT count(DISTINCT visitor_id) AS visitors FROM ${visitsSource(scope)}`),
  ]);
  const revenue = money(o?.revenue ?? 0);
  const count = Number(o?.orders ?? 0);
  const purchasers = Number(o?.purchasers ?? 0);
  return {
    revenue,
    orders: count,
    average_order_value: count ? money(revenue / count) : 0,
    purchasers,
    conversion_rate: conversionRate(purchasers, Number(v?.visitors ?? 0)),
  };
}

export async function revenue(db: Database, scope: Scope, compare: Comparison, interval: Interval) {
  const cur = scope.site.currency;
  const prevRange = comparisonRange(scope.range, compare);
  const labels = bucketLabels(scope.range, interval);
  const src = orders(scope);
  const [metrics, previous, series, byCurrency] = await Promise.all([
    revenueMetrics(db, scope),
    prevRange ? revenueMetrics(db, { ...scope, range: prevRange }) : Promise.resolve(null),
    rows(db, sql`SELECT ${bucketSql(interval, scope.range.timezone, 'ts')} AS bucket, sum(revenue) AS revenue, count(*) AS orders
      FROM ${src} WHERE currency = ${cur} GROUP BY ALL`),
    rows(db, sql`SELECT currency, sum(revenue) AS revenue, count(*) AS orders FROM ${src} GROUP BY ALL ORDER BY revenue DESC, currency`),
  ]);
  const byBucket = new Map(series.map((r) => [r.bucket as string, r]));
  return {
    range: rangeEcho(scope.range),
    currency: cur,
    metrics,
    previous,
    change: changes(metrics, previous),
    interval,
    points: labels.map((date) => ({ date, revenue: money(byBucket.get(date)?.revenue ?? 0), orders: Number(byBucket.get(date)?.orders ?? 0) })),
    by_currency: byCurrency.map((r) => ({ currency: r.currency as string, revenue: money(r.revenue), orders: Number(r.orders) })),
  };
}
