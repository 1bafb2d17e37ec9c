// Orders: the paid events of a scope, one row per order. An order_id counts at its first occurrence only —
// also when that occurrence lies before the range, so a resent order never counts again. The revenue report
// and the query API's revenue, orders and average order value all count these rows (sql/metrics.ts, table `orders`).
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import type { Scope } from './scope.ts';

/**
 * `paid`'s rows with revenue, deduplicated per order (per order and goal with `byGoal`: an order completing
 * two goals counts for each), revenue as DOUBLE, `currency` upper-cased (the site's where none was sent).
 * Every currency stays: totals keep the site's (no FX conversion), the revenue report lists the others apart.
 */
export function ordersOf(s: Scope, paid: Fragment, byGoal = false): Fragment {
  const earlier = sql`SELECT order_id FROM purchases WHERE site_id = ${s.site.id} AND ts < ${s.range.fromUtc}::TIMESTAMP AND order_id IS NOT NULL`;
  const part = frag(byGoal ? 'order_id, goal_name' : 'order_id');
  return sql`(SELECT * REPLACE (revenue::DOUBLE AS revenue, coalesce(upper(currency), ${s.site.currency}) AS currency)
    FROM ${paid} WHERE revenue IS NOT NULL AND (order_id IS NULL OR order_id NOT IN (${earlier}))
    QUALIFY order_id IS NULL OR row_number() OVER (PARTITION BY ${part} ORDER BY ts) = 1)`;
}

/** The orders in the site's currency: what revenue totals count. */
export const siteCurrencyOrders = (s: Scope, orders: Fragment): Fragment => sql`(SELECT * FROM ${orders} WHERE currency = ${s.site.currency})`;
