// Orders: the paid events of a scope, one row per order. An order_id counts at its first occurrence only —
// also when that occurrence lies before the range, so a resent order never counts again. The revenue report
// and the query API's revenue, orders and average order value all count these rows (sql/metrics.ts, table `orders`).
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import type { Scope } from './scope.ts';
import { readRows } from './read.ts';
import { dialectOf } from '../sql/dialect.ts';

/**
 * The order ids paid before the range: DuckDB's purchases registry, or on another engine (which has no
 * registry) its events that carried revenue — the same rows.
 */
function earlierOrders(s: Scope): Fragment {
  if (dialectOf(s).name === 'duckdb') {
    return sql`SELECT order_id FROM purchases WHERE site_id = ${s.site.id} AND ts < ${s.range.fromUtc}::TIMESTAMP AND order_id IS NOT NULL`;
  }
  const before = readRows(s, 'events', { fromUtc: '1970-01-01T00:00:00.000Z', toUtc: s.range.fromUtc });
  return sql`SELECT order_id FROM ${before} WHERE revenue IS NOT NULL AND order_id IS NOT NULL`;
}

/**
 * `paid`'s rows with revenue, deduplicated per order (per order and goal with `byGoal`: an order completing
 * two goals counts for each), revenue as DOUBLE, `currency` upper-cased (the site's where none was sent).
 * Every currency stays: totals keep the site's (no FX conversion), the revenue report lists the others apart.
 */
export function ordersOf(s: Scope, paid: Fragment, byGoal = false): Fragment {
  const earlier = earlierOrders(s);
  const part = frag(byGoal ? 'order_id, goal_name' : 'order_id');
  return sql`(SELECT * REPLACE (revenue::DOUBLE AS revenue, coalesce(upper(currency), ${s.site.currency}) AS currency)
    FROM ${paid} WHERE revenue IS NOT NULL AND (order_id IS NULL OR order_id NOT IN (${earlier}))
    QUALIFY order_id IS NULL OR row_number() OVER (PARTITION BY ${part} ORDER BY ts) = 1)`;
}

/** The orders in the site's currency: what revenue totals count. */
export const siteCurrencyOrders = (s: Scope, orders: Fragment): Fragment => sql`(SELECT * FROM ${orders} WHERE currency = ${s.site.currency})`;
