// SQL of the query API: metrics × dimensions over a scope, as one statement. Each metric is counted on the
// table it lives on (contract §7: visit metrics on visits, event metrics on events), in "parts" grouped by
// the same dimension columns d0…d2 and joined on them. Dimension columns come from the registry only; a
// property key and goal names are bound parameters.
import { frag, ident, join, sql, type Fragment } from '../../storage/sql.ts';
import { propKeyCountsSource, type Scope } from '../plan/scope.ts';
import { siteRows, type Plan } from '../plan/planner.ts';
import type { QueryMetric } from '../parse/query-parse.ts';
import { isEventDim, type QueryDim } from '../parse/query-dimensions.ts';
import type { SiteGoal } from '../parse/filter-tree.ts';
import { anyGoalCondition, type MatchDef } from './goals-match.ts';
import { metricSql, type Metric, type MetricTable } from './metrics.ts';
import { siteCurrencyOrders } from '../plan/orders-source.ts';
import { bucketSql, labelFormat } from './buckets.ts';
import { iso } from '../parse/calendar.ts';
import { dialectOf, type Dialect } from './dialect.ts';

/** How one query is counted: its scope's plan, dimensions, metrics, the goals of an event:goal dimension, the goals conversions count. */
export type PartsInput = {
  plan: Plan;
  dims: QueryDim[];
  metrics: QueryMetric[];
  goals: SiteGoal[];
  conversionGoals: MatchDef[] | null;
  /** The plan of the same scope without its goal filters: the denominator of conversion_rate. */
  denominator?: Plan;
  /** Count the scope's visitors (percentage's base) in the same pass where a part reads the base's own relation. */
  scopeRow?: boolean;
  /**
   * The events with first-occurrence and attribute-change marks (Plan.pageAttrEvents) for dimensions that are a
   * page and visit attributes (pageAttrColumns): visitors and visits per row are sums there, not distinct counts.
   */
  pageAttr?: { from: Fragment; table: MetricTable } | null;
  /**
   * The visits with first-occurrence and attribute-change marks (Plan.attrVisits) for dimensions that are all visit
   * attributes (visitAttrColumns): visitors per row, and the scope's, are sums there.
   */
  visitAttr?: { from: Fragment; table: MetricTable } | null;
};

/** The columns of dimensions that are all visit attributes (the visits' marks may count them), or null. */
export function visitAttrColumns(dims: QueryDim[]): string[] | null {
  const cols = dims.map((d) => (d.kind === 'column' && d.dim.level === 'visit' ? d.dim.column : null));
  return cols.length && cols.every((c) => c !== null) ? (cols as string[]) : null;
}

/**
 * The visit attributes of dimensions made of the page and attributes every event of a visit carries (device,
 * country…), which the events' marks can count (Plan.pageAttrEvents), or null for any other shape.
 */
export function pageAttrColumns(dims: QueryDim[]): string[] | null {
  const cols = dims.map((d) => (d.kind === 'column' ? d.dim : null));
  if (cols.some((d) => d === null) || !cols.some((d) => d!.name === 'page')) return null;
  const rest = cols.filter((d) => d!.name !== 'page');
  if (!rest.length || rest.some((d) => d!.level !== 'visit' || !d!.onEveryEvent)) return null;
  return rest.map((d) => d!.column);
}

/** Raw columns a query's rows carry, from which query-run.ts finishes every metric. */
export type RawColumn = 'visitors' | 'visits' | 'pageviews' | 'events' | 'bounce_rate' | 'visit_duration' | 'time_on_page' | 'scroll_depth'
  | 'revenue' | 'orders' | 'conversions' | 'exits' | 'denominator' | 'completion_revenue';

/** `metric AS name` from the metric registry (sql/metrics.ts). */
const counted = (m: Metric, on: MetricTable) => `${metricSql(m, on)} AS ${m}`;

/** Which relation a dimension is read from: visits, events, the engaged page of events, or visits by exit page. */
type On = 'visits' | 'events' | 'engaged' | 'exits';

const DAY_MS = 86_400_000;
const visitLookup = (s: Scope) => siteRows(s.files, 'visits', s.site.id, { fromUtc: iso(Date.parse(s.range.fromUtc) - DAY_MS), toUtc: s.range.toUtc }, s.dialect);

function dimExpr(d: QueryDim, on: On, s: Scope): Fragment {
  // Grouped and joined on the integer bucket; labelled once, after the join (labelledColumns()).
  if (d.kind === 'time') return bucketSql(d.interval, s.range, on === 'visits' || on === 'exits' ? 'start_ts' : 'ts', dialectOf(s));
  if (d.kind === 'prop') return sql`coalesce(${dialectOf(s).prop(d.key)}, '(none)')`;
  if (d.kind === 'goal') return frag('goal_name');
  if (d.kind === 'prop_key') return frag('prop_key');
  const dim = d.dim;
  let col = dim.column;
  if (on === 'visits' || on === 'exits') col = dim.name === 'page' ? (on === 'exits' ? 'exit_page' : 'entry_page') : dim.level === 'event' ? dim.companion! : dim.column;
  // Engagement is of the page the row names (entry and exit pages included, as the pages report counts it).
  else if (on === 'engaged' && ['page', 'entry_page', 'exit_page', 'hostname'].includes(dim.name)) col = dim.name === 'hostname' ? 'engaged_hostname' : 'engaged_path';
  else if (dim.level === 'visit' && !dim.onEveryEvent) col = `vd_${dim.column}`;
  return sql`coalesce(${ident(col)}, ${dim.none})`;
}

const dimNames = (dims: QueryDim[], only?: (d: QueryDim) => boolean) => dims.flatMap((d, i) => (!only || only(d) ? [`d${i}`] : []));

/**
 * `GROUP BY` the dimension columns. With `scopeRow`, also the grand total as one more row (a grouping set)
 * marked by SCOPE_ROW: the scope's figures from the same scan as the groups'.
 */
function groupBy(dims: QueryDim[], scopeRow = false): Fragment {
  if (!dims.length) return frag('');
  const cols = dims.map((_, i) => i + 1).join(', ');
  if (!scopeRow) return frag(` GROUP BY ${cols}`);
  return frag(` GROUP BY GROUPING SETS ((${dims.map((_, i) => `d${i}`).join(', ')}), ())`);
}

/** The column that marks a part's scope row (nonzero) among its groups (0). */
export const SCOPE_ROW = 'scope_row';
const scopeRowColumn = (dims: QueryDim[]) => `grouping(${dims.map((_, i) => `d${i}`).join(', ')}) AS ${SCOPE_ROW}`;

/** `SELECT <dims as d0…>, <aggregates> FROM rel GROUP BY …` (no GROUP BY without dimensions: one row). */
function grouped(rel: Fragment, dims: QueryDim[], on: On, s: Scope, aggregates: string[], where?: Fragment, scopeRow = false): Fragment {
  const ds = dims.map((d) => sql`${dimExpr(d, on, s)} AS ${frag(`d${dims.indexOf(d)}`)}`);
  const cols = join([...ds, frag([...aggregates, ...(scopeRow ? [scopeRowColumn(dims)] : [])].join(', '))], ', ');
  return sql`SELECT ${cols} FROM ${rel}${where ? sql` WHERE ${where}` : frag('')}${groupBy(dims, scopeRow)}`;
}

/** Whether eventsRel() reads the scope's events as they are (one row per event, no column looked up). */
const plainEvents = (dims: QueryDim[]) =>
  dims.every((d) => d.kind !== 'prop_key' && d.kind !== 'goal' && !(d.kind === 'column' && d.dim.level === 'visit' && !d.dim.onEveryEvent));

/**
 * The scope's events with what the dimensions need beside their own columns: the visit's attributes that
 * not every event carries (vd_<column>), for event:props one row per property key the event carries (none
 * for an event without properties), and for event:goal one row per goal each event completes.
 */
function eventsRel(plan: Plan, dims: QueryDim[], goals: SiteGoal[]): Fragment {
  const s = plan.scope;
  let rel = plan.events();
  const looked = dims.flatMap((d) => (d.kind === 'column' && d.dim.level === 'visit' && !d.dim.onEveryEvent ? [d.dim.column] : []));
  if (looked.length) {
    const cols = frag(looked.map((c) => `${c} AS vd_${c}`).join(', '));
    rel = sql`(SELECT e.*, v.${dialectOf(s).starExcept(['visit_id'])} FROM ${rel} e LEFT JOIN (SELECT visit_id, ${cols} FROM ${visitLookup(s)}) v USING (visit_id))`;
  }
  // Only the events that carry properties can give a key (~16% of them on the benchmark's site): dropping the
  // rest before unnesting spares the unnest and its projection of every other event.
  if (dims.some((d) => d.kind === 'prop_key')) rel = sql`(SELECT *, ${dialectOf(s).explode(dialectOf(s).propKeys())} AS prop_key FROM ${rel} WHERE ${dialectOf(s).hasProps()})`;
  return dims.some((d) => d.kind === 'goal') ? plan.completions(goals, rel) : rel;
}

/** One row per order in the site's currency (plan/orders-source.ts), per goal too when grouped by goal. */
const ordersRel = (plan: Plan, rel: Fragment, byGoal: boolean): Fragment => siteCurrencyOrders(plan.scope, plan.orders(rel, byGoal));

/**
 * Whether visitors and visits are counted on the events (with an event dimension) rather than the visits.
 * Realtime counts who is active now: the visitors of the last 30 minutes' events, not of the visits begun in them.
 */
const eventsAreHome = (dims: QueryDim[], s: Scope) => dims.some(isEventDim) || s.range.period === 'realtime';

/** The raw columns `metrics` need (derived metrics need their parts). */
export function rawColumns(metrics: QueryMetric[]): Set<RawColumn> {
  const need = new Set<RawColumn>();
  for (const m of metrics) {
    if (m === 'views_per_visit') need.add('pageviews').add('visits');
    else if (m === 'percentage') need.add('visitors');
    else if (m === 'average_order_value') need.add('revenue').add('orders');
    else if (m === 'conversion_rate') need.add('visitors').add('denominator');
    else if (m === 'exit_rate') need.add('exits').add('pageviews');
    else need.add(m);
  }
  return need;
}

/** The visitors a row's percentage is of: the scope's, counted on the table the rows are (as the reports do). */
export function percentageBase(plan: Plan, dims: QueryDim[]): Fragment {
  return sql`SELECT ${frag(counted('visitors', 'events'))} FROM ${eventsAreHome(dims, plan.scope) ? plan.events() : plan.visits()}`;
}

/**
 * A part of the answer: its SQL and the dimension columns it groups by. A part that `decorates` adds figures
 * to the rows the others found (a page's engagement, exits, a conversion rate's denominator) and no row of its own.
 * A part with `scopeRow` also holds the scope's row (SCOPE_ROW nonzero, its `visitors` percentage's base).
 */
export type Part = { sql: Fragment; dims: string[]; decorates?: boolean; scopeRow?: boolean };

/**
 * The select list of the joined parts: every column, the time column (an integer bucket while grouping and
 * joining: hashing integers, not labels) as the bucket's label. Labels sort as their buckets do.
 */
export function labelledColumns(dims: QueryDim[], dialect: Dialect): Fragment {
  const t = dims.findIndex((d) => d.kind === 'time');
  const d = dims[t];
  if (!d || d.kind !== 'time') return frag('*');
  return sql`* REPLACE (${dialect.formatMicros(frag(`d${t}`), labelFormat(d.interval))} AS ${frag(`d${t}`)})`;
}

/** Every part of the query, the ones finding rows first. */
export function queryParts(q: PartsInput): Part[] {
  return partsOf(q);
}

function partsOf(q: PartsInput): Part[] {
  const { plan, dims } = q;
  const s = plan.scope;
  const need = rawColumns(q.metrics);
  // The key list alone (events per property key, unfiltered): summed from the per-slot key counts. A key whose
  // events were all erased keeps a row of zeros there; the scan would not list it.
  const keyCounts = dims.length === 1 && dims[0]!.kind === 'prop_key' && need.size === 1 && need.has('events') && !q.scopeRow ? propKeyCountsSource(s) : null;
  if (keyCounts) return [{ sql: sql`SELECT key AS d0, ${frag(counted('events', 'counts'))} FROM ${keyCounts} GROUP BY 1 HAVING sum(events) > 0`, dims: dimNames(dims) }];
  // One key's values or the key list, visitors and events only: the property index's rows stand for the events.
  const propRows = plan.propRows(dims, need);
  const eventHome = eventsAreHome(dims, s);
  const visitColumns = dims.some((d) => d.kind === 'column' && d.dim.level === 'visit');
  const all = dimNames(dims);
  const parts: Part[] = [];
  const events = () => eventsRel(plan, dims, q.goals);
  // Page × attribute where the marks hold: the events' visitors and visits per row are sums over the marked events.
  const pageAttr = eventHome && s.range.period !== 'realtime' ? q.pageAttr ?? null : null;
  const evTable: MetricTable = pageAttr ? pageAttr.table : 'events';
  // Visit attributes alone where the marks hold: visitors per row (and the scope's row) are sums over the marked visits.
  const visitAttr = !eventHome ? q.visitAttr ?? null : null;
  const visitTable: MetricTable = visitAttr ? visitAttr.table : 'visits';
  // percentageBase() in the same scan: the part counting visitors on the very relation the base counts them on.
  // DuckDB only (grouping sets); another engine runs percentageBase() beside.
  const scopeRow = !!q.scopeRow && dims.length > 0 && dialectOf(s).name === 'duckdb' && need.has('visitors');

  // Visitors and visits on the home table; pageviews and events too where grouped by a visit attribute.
  // With event dimensions the home table is the events, counted in one pass with the event metrics below.
  const home: string[] = [];
  const ev: string[] = [];
  if (eventHome) {
    if (need.has('visitors')) ev.push(counted('visitors', evTable));
    if (need.has('visits')) ev.push(counted('visits', evTable));
  } else {
    for (const m of ['visitors', 'visits', 'bounce_rate', 'visit_duration'] as const) if (need.has(m)) home.push(counted(m, visitTable));
    if (visitColumns && need.has('pageviews')) home.push(counted('pageviews', visitTable));
    if (visitColumns && need.has('events')) home.push(counted('events', visitTable));
  }
  const homeScope = scopeRow && !eventHome;
  if (home.length) parts.push({ sql: grouped(visitAttr ? visitAttr.from : plan.visits(), dims, 'visits', s, home, undefined, homeScope), dims: all, ...(homeScope ? { scopeRow } : {}) });

  // Counted on the events: pageviews and events (unless on visits above), conversions.
  if (need.has('pageviews') && (eventHome || !visitColumns)) ev.push(counted('pageviews', evTable));
  if (need.has('events') && (eventHome || !visitColumns)) ev.push(counted('events', evTable));
  let conv: Fragment | null = null;
  if (need.has('conversions')) {
    if (dims.some((d) => d.kind === 'goal')) ev.push(counted('conversions', 'completions'));
    else conv = anyGoalCondition(q.conversionGoals ?? [], dialectOf(s));
  }
  // The revenue of the completing events (the goals report's, beside the goal's value), with event:goal only.
  if (need.has('completion_revenue') && dims.some((d) => d.kind === 'goal')) ev.push(counted('completion_revenue', 'completions'));
  if (ev.length === 1 && !conv && home.length && ev[0]!.endsWith(' AS pageviews')) {
    // Pageviews alone beside the visits' rows (a series): read only the pageviews.
    parts.push({ sql: grouped(events(), dims, 'events', s, ['count(*) AS pageviews'], frag(`event_type = 'pageview'`)), dims: all });
  } else if (ev.length || conv) {
    const aggs = conv ? join([frag(ev.join(', ')), sql`count(*) FILTER (WHERE ${conv}) AS conversions`].filter((f) => f.sql), ', ') : frag(ev.join(', '));
    const ds = dims.map((d, i) => sql`${propRows ? propRows.dim : dimExpr(d, 'events', s)} AS ${frag(`d${i}`)}`);
    // The marks' sums hold per row only: the scope's row (all pages together) is counted beside.
    const evScope = scopeRow && eventHome && plainEvents(dims) && !pageAttr;
    const cols = evScope ? [...ds, aggs, frag(scopeRowColumn(dims))] : [...ds, aggs];
    const rel = propRows ? propRows.from : pageAttr ? pageAttr.from : events();
    parts.push({ sql: sql`SELECT ${join(cols, ', ')} FROM ${rel}${groupBy(dims, evScope)}`, dims: all, ...(evScope ? { scopeRow } : {}) });
  }

  // Bounce rate and duration with event dimensions: of the visits entering on the page (or host), as the pages
  // report counts them; with other event dimensions (name, type, goal, props), of the visits holding a matching event.
  if (eventHome && (need.has('bounce_rate') || need.has('visit_duration'))) {
    const quality = [counted('bounce_rate', 'visits'), counted('visit_duration', 'visits')];
    if (dims.every((d) => !isEventDim(d) || (d.kind === 'column' && d.dim.companion !== undefined))) {
      parts.push({ sql: grouped(plan.visits(), dims, 'visits', s, quality), dims: all, decorates: true });
    } else {
      const ds = dims.map((d, i) => sql`${dimExpr(d, 'events', s)} AS ${frag(`d${i}`)}`);
      const inner = sql`SELECT DISTINCT ${join([...ds, frag('visit_id')], ', ')} FROM ${events()}`;
      const rel = sql`(SELECT g.*, v.is_bounce, v.duration FROM (${inner}) g JOIN (SELECT visit_id, is_bounce, duration FROM ${visitLookup(s)}) v USING (visit_id))`;
      const grp = dims.length ? frag(` GROUP BY ${all.join(', ')}`) : frag('');
      parts.push({ sql: sql`SELECT ${frag([...all, ...quality].join(', '))} FROM ${rel}${grp}`, dims: all, decorates: true });
    }
  }

  // Time on page and scroll depth: the reports about a page arrive on the next pageview, which stores the page as engaged_path.
  if (need.has('time_on_page') || need.has('scroll_depth')) {
    parts.push({
      sql: grouped(events(), dims, 'engaged', s, [counted('time_on_page', 'events'), counted('scroll_depth', 'events')], frag('engaged_path IS NOT NULL')),
      dims: all,
      decorates: true,
    });
  }

  if (need.has('revenue') || need.has('orders')) {
    parts.push({ sql: grouped(ordersRel(plan, events(), dims.some((d) => d.kind === 'goal')), dims, 'events', s, [counted('revenue', 'orders'), counted('orders', 'orders')]), dims: all });
  }

  // Visits leaving on the page (event:page ↦ the visits' exit page).
  if (need.has('exits')) parts.push({ sql: grouped(plan.visits(), dims, 'exits', s, ['count(*) AS exits']), dims: all, decorates: true });

  // Conversion rate: converting visitors over the visitors of the row without the goal (or of the scope, for event:goal).
  if (need.has('denominator')) {
    const den = q.denominator ?? plan;
    const rest = dims.filter((d) => d.kind !== 'goal');
    const restHome = rest.some(isEventDim);
    const rel = restHome ? eventsRel(den, rest, q.goals) : den.visits();
    const ds = rest.map((d) => sql`${dimExpr(d, restHome ? 'events' : 'visits', den.scope)} AS ${frag(`d${dims.indexOf(d)}`)}`);
    const grp = rest.length ? frag(` GROUP BY ${rest.map((_, i) => i + 1).join(', ')}`) : frag('');
    parts.push({ sql: sql`SELECT ${join([...ds, frag('count(DISTINCT visitor_id) AS denominator')], ', ')} FROM ${rel}${grp}`, dims: dimNames(dims, (d) => d.kind !== 'goal'), decorates: true });
  }
  return parts;
}
