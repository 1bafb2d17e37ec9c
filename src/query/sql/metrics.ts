// The metric registry (contract §7): each metric's SQL on the table it is counted from, and its rounding.
// This file is the single definition; stats, charts and breakdowns all select from it.
import { frag, type Fragment } from '../../storage/sql.ts';

/**
 * `counts`: the per-slot pageview and event counts (event_counts), for unfiltered scopes.
 * `marked`: events flagged first of their visitor / visit in range for the grouping (query/plan/marked-sources.ts).
 * `attr_visits`, `attr_events`: visits (events) flagged first in range (on the page) and `changed` where their visitor
 *   showed more than one value of the grouped attributes (query/plan/attr-marked-sources.ts).
 * `first_visits`: visits flagged first in range: the whole scope or its chart buckets, or grouped by attributes no
 *   visitor showed two values of.
 * `value_visits`: visits flagged first in range (first_in_scope) and first in range with their source or channel
 *   (first_of_value), grouped by that value (query/plan/value-marked-sources.ts).
 * `rollup`: sums of the engagement reports per file and engaged page (file_engagement, query/plan/engagement-sources.ts).
 * `orders`: one row per order, revenue as DOUBLE, currency upper-cased (query/plan/orders-source.ts).
 * `completions`: one row per event and goal it completes, the goal as goal_name (query/plan/completions-source.ts).
 */
export type MetricTable = 'visits' | 'events' | 'counts' | 'marked' | 'attr_visits' | 'first_visits' | 'value_visits' | 'attr_events' | 'rollup' | 'orders' | 'completions';

/** Where marks answer for the visitors that kept one value, and the others are counted distinct. */
const sumOrDistinct = (first: string, id: string) => `count_if(${first} AND NOT changed) + count(DISTINCT ${id}) FILTER (WHERE changed)`;

type Def = { sql: Partial<Record<MetricTable, string>>; finish: (v: number | null) => number | null };

const count = (v: number | null) => Math.round(v ?? 0);
const whole = (v: number | null) => (v === null ? 0 : Math.round(v));
const wholeOrNull = (v: number | null) => (v === null ? null : Math.round(v));
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
const cents = (v: number | null) => round(v ?? 0, 2);
const raw = (v: number | null) => v ?? 0;

const BOUNCE = '100 * avg(is_bounce::INTEGER)';

/**
 * The pageview test of the marked pass (DuckDB only), the same answer as `event_type = 'pageview'`: a scalar
 * function of the column alone is run once per dictionary entry of a Parquet page, where DuckDB evaluates a
 * comparison on every row (pages over 30 days at 100M: the pass ~0.82× CPU; on a table's plain vectors it costs
 * about what `=` does). Not for `FILTER (WHERE …)`, which selects rows instead.
 */
const IS_PAGEVIEW = "list_contains(['pageview'], event_type)";

const DEFS = {
  /** Distinct visitors, exact (integer IDs keep it cheap). */
  visitors: {
    sql: {
      visits: 'count(DISTINCT visitor_id)', events: 'count(DISTINCT visitor_id)', marked: 'count_if(first_visitor)', completions: 'count(DISTINCT visitor_id)',
      attr_visits: sumOrDistinct('first_in_scope', 'visitor_id'), attr_events: sumOrDistinct('first_visitor', 'visitor_id'), first_visits: 'count_if(first_in_scope)',
      value_visits: 'count_if(first_of_value)',
    },
    finish: count,
  },
  visits: {
    sql: { visits: 'count(*)', events: 'count(DISTINCT visit_id)', marked: 'count_if(first_visit)', attr_visits: 'count(*)', first_visits: 'count(*)', value_visits: 'count(*)', attr_events: sumOrDistinct('first_visit', 'visit_id') },
    finish: count,
  },
  pageviews: {
    sql: {
      visits: 'sum(pageviews)', events: "count(*) FILTER (WHERE event_type = 'pageview')", counts: 'sum(pageviews)', marked: `count_if(${IS_PAGEVIEW})`,
      attr_visits: 'sum(pageviews)', first_visits: 'sum(pageviews)', value_visits: 'sum(pageviews)', attr_events: "count(*) FILTER (WHERE event_type = 'pageview')",
    },
    finish: count,
  },
  events: { sql: { visits: 'sum(events)', events: 'count(*)', counts: 'sum(events)', marked: 'count(*)', attr_visits: 'sum(events)', first_visits: 'sum(events)', value_visits: 'sum(events)', attr_events: 'count(*)' }, finish: count },
  /** % of visits with exactly one pageview and no other event (the loader's is_bounce). */
  bounce_rate: { sql: { visits: BOUNCE, attr_visits: BOUNCE, first_visits: BOUNCE, value_visits: BOUNCE }, finish: whole },
  /** Mean of (last event − first event) per visit, seconds. */
  visit_duration: { sql: { visits: 'avg(duration)', attr_visits: 'avg(duration)', first_visits: 'avg(duration)', value_visits: 'avg(duration)' }, finish: whole },
  /** Over the reports attributed to a page (see plan/engagement-sources.ts). */
  time_on_page: { sql: { events: 'avg(time_on_page)', rollup: 'sum(top_sum) / nullif(sum(top_n), 0)' }, finish: wholeOrNull },
  scroll_depth: { sql: { events: 'avg(scroll_depth)', rollup: 'sum(sd_sum) / nullif(sum(sd_n), 0)' }, finish: wholeOrNull },
  /** An order counts once (its first occurrence); in the currency of the rows counted. */
  revenue: { sql: { orders: 'sum(revenue)' }, finish: cents },
  orders: { sql: { orders: 'count(*)' }, finish: count },
  /** Visitors who placed an order. */
  purchasers: { sql: { orders: 'count(DISTINCT visitor_id)' }, finish: count },
  /** Goal completions: an event completing two goals counts for each. */
  conversions: { sql: { completions: 'count(*)' }, finish: count },
  /** The revenue the completing events carry (every one, in any currency), unrounded: the goals report adds the goal's value. */
  completion_revenue: { sql: { completions: 'coalesce(sum(revenue), 0)::DOUBLE' }, finish: raw },
} satisfies Record<string, Def>;

export type Metric = keyof typeof DEFS;

export const countedOn = (m: Metric, table: MetricTable) => (DEFS[m].sql as Partial<Record<MetricTable, string>>)[table] !== undefined;

export function metricSql(m: Metric, table: MetricTable): string {
  if (!countedOn(m, table)) throw new Error(`metric ${m} is not counted from ${table}`);
  return (DEFS[m].sql as Partial<Record<MetricTable, string>>)[table]!;
}

/** `expr AS name, …` for the given metrics on one table. */
export const selectMetrics = (ms: readonly Metric[], table: MetricTable): Fragment =>
  frag(ms.map((m) => `${metricSql(m, table)} AS ${m}`).join(', '));

/** Apply each metric's rounding to a raw row. */
export function finish<M extends Metric>(ms: readonly M[], row: Record<string, any> | undefined): Record<M, number | null> {
  const out = {} as Record<M, number | null>;
  for (const m of ms) out[m] = DEFS[m].finish(row?.[m] === undefined || row?.[m] === null ? null : Number(row[m]));
  return out;
}

/** pageviews / visits, 2 decimals. */
export const viewsPerVisit = (pageviews: number, visits: number) => (visits ? round(pageviews / visits, 2) : 0);

/** A row's share of all visitors, 1 decimal. */
export const percentage = (part: number, total: number) => (total ? round((100 * part) / total, 1) : 0);

/** Converting visitors / all visitors, %, 2 decimals. */
export const conversionRate = (converted: number, total: number) => (total ? round((100 * converted) / total, 2) : 0);

/** Percent change from previous to current, 1 decimal; null where the previous value is 0 (or absent). */
export const change = (current: number | null, previous: number | null) =>
  previous === null || previous === 0 || current === null ? null : round((100 * (current - previous)) / previous, 1);

export const money = cents;

/** Revenue per order, of the revenue as reported (rounded to cents). */
export const averageOrderValue = (revenue: number, orders: number) => (orders ? money(money(revenue) / orders) : 0);
