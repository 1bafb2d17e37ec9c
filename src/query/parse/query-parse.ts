// Parse stage of the query API: the POST /query body → the engine's query (metrics, dimensions, filter tree,
// period, order, paging), or a 400 naming the offending part. Nothing here touches SQL.
import { invalidQuery } from '../errors.ts';
import { DATE_EXPECTED, isDate } from './calendar.ts';
import type { PeriodInput } from './period.ts';
import { API_METRICS, DATE_RANGES, type ApiMetric } from './query-body.ts';
import { queryDimension, type QueryDim } from './query-dimensions.ts';
import { bad, filteredGoals, parseFilterTree, type SiteGoal } from './filter-tree.ts';
import type { FilterNode } from './filter-types.ts';

export type OrderKey = { key: string; desc: boolean };

/**
 * What a query counts: the body's metrics, and those only the reports' presets ask for (parse/presets.ts):
 * completion_revenue, the revenue the goal-completing events carry, which the goals report adds the goal's value to.
 */
export type QueryMetric = ApiMetric | 'completion_revenue';

export type ApiQuery = {
  metrics: QueryMetric[];
  dimensions: QueryDim[];
  filter: FilterNode | null;
  period: PeriodInput;
  orderBy: OrderKey[];
  include: { totals: boolean; comparison: 'previous_period' | 'year_over_year' | null; timeLabels: boolean };
  limit: number;
  offset: number;
  /** The body as understood, defaults filled in: echoed as `query`. */
  normalised: Record<string, unknown>;
};

const FIELDS = ['metrics', 'date_range', 'date', 'dimensions', 'filters', 'order_by', 'include', 'pagination'];
const MAX_LIMIT = 10_000;
const NEEDS_PAGE: ApiMetric[] = ['time_on_page', 'scroll_depth', 'exit_rate'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function metricsOf(raw: unknown): ApiMetric[] {
  if (!Array.isArray(raw)) throw bad('metrics', 'expected a list of 1–12 metrics');
  if (raw.length < 1 || raw.length > 12) throw bad('metrics', 'expected 1–12 metrics');
  raw.forEach((m, i) => {
    if (!(API_METRICS as readonly unknown[]).includes(m)) throw bad(`metrics[${i}]`, `unknown metric ${JSON.stringify(m)?.slice(0, 60)} (expected one of ${API_METRICS.join(', ')})`);
    if (raw.indexOf(m) !== i) throw bad(`metrics[${i}]`, `'${m}' is listed twice`);
  });
  return raw as ApiMetric[];
}

function dimensionsOf(raw: unknown): QueryDim[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw bad('dimensions', 'expected a list of 0–3 dimensions');
  if (raw.length > 3) throw bad('dimensions', 'at most 3 dimensions');
  return raw.map((name, i) => {
    const d = queryDimension(name);
    if (typeof d === 'string') throw bad(`dimensions[${i}]`, d);
    if (raw.indexOf(name) !== i) throw bad(`dimensions[${i}]`, `'${name}' is listed twice`);
    if (d.kind === 'time' && raw.slice(0, i).some((n) => typeof n === 'string' && n.startsWith('time:'))) throw bad(`dimensions[${i}]`, 'at most one time dimension');
    return d;
  });
}

function periodOf(range: unknown, date: unknown): PeriodInput {
  if (date !== undefined && (typeof date !== 'string' || !isDate(date))) throw bad('date', DATE_EXPECTED);
  const base = date as string | undefined;
  if (typeof range === 'string') {
    if (!(DATE_RANGES as readonly string[]).includes(range)) throw bad('date_range', `unknown range '${range.slice(0, 60)}' (expected one of ${DATE_RANGES.join(', ')}, or ["YYYY-MM-DD", "YYYY-MM-DD"])`);
    if (range === 'year') {
      const y = (base ?? new Date().toISOString()).slice(0, 4);
      return { period: 'custom', from: `${y}-01-01`, to: `${y}-12-31` };
    }
    return { period: range, date: base };
  }
  if (!Array.isArray(range) || range.length !== 2) throw bad('date_range', 'expected a period or ["YYYY-MM-DD", "YYYY-MM-DD"]');
  range.forEach((d, i) => {
    if (typeof d !== 'string' || !isDate(d)) throw bad(`date_range[${i}]`, DATE_EXPECTED);
  });
  if (range[0] > range[1]) throw bad('date_range', `${range[0]} is after ${range[1]}`);
  return { period: 'custom', from: range[0], to: range[1] };
}

function orderOf(raw: unknown, metrics: ApiMetric[], dims: QueryDim[]): OrderKey[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw bad('order_by', 'expected [[metric or dimension, "asc"|"desc"], …]');
  return raw.map((o, i) => {
    if (!Array.isArray(o) || o.length !== 2) throw bad(`order_by[${i}]`, 'expected [metric or dimension, "asc"|"desc"]');
    const [key, dir] = o;
    if (typeof key !== 'string' || !(metrics.includes(key as ApiMetric) || dims.some((d) => d.name === key))) {
      throw bad(`order_by[${i}][0]`, `${JSON.stringify(key)?.slice(0, 100)} is not one of the query's metrics or dimensions`);
    }
    if (dir !== 'asc' && dir !== 'desc') throw bad(`order_by[${i}][1]`, `expected "asc" or "desc"`);
    return { key, desc: dir === 'desc' };
  });
}

function includeOf(raw: unknown): ApiQuery['include'] {
  if (raw === undefined) return { totals: false, comparison: null, timeLabels: false };
  if (!isObject(raw)) throw bad('include', 'expected an object {totals?, comparison?, time_labels?}');
  for (const k of Object.keys(raw)) if (!['totals', 'comparison', 'time_labels'].includes(k)) throw bad(`include.${k.slice(0, 60)}`, 'unknown field');
  for (const k of ['totals', 'time_labels']) if (raw[k] !== undefined && typeof raw[k] !== 'boolean') throw bad(`include.${k}`, 'expected true or false');
  const c = raw.comparison;
  if (c !== undefined && c !== null && c !== 'previous_period' && c !== 'year_over_year') throw bad('include.comparison', 'expected previous_period or year_over_year');
  return { totals: raw.totals === true, comparison: (c ?? null) as ApiQuery['include']['comparison'], timeLabels: raw.time_labels === true };
}

function pagingOf(raw: unknown): { limit: number; offset: number } {
  if (raw === undefined) return { limit: MAX_LIMIT, offset: 0 };
  if (!isObject(raw)) throw bad('pagination', 'expected an object {limit?, offset?}');
  for (const k of Object.keys(raw)) if (k !== 'limit' && k !== 'offset') throw bad(`pagination.${k.slice(0, 60)}`, 'unknown field');
  const { limit = MAX_LIMIT, offset = 0 } = raw as { limit?: unknown; offset?: unknown };
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw bad('pagination.limit', `expected a whole number 1–${MAX_LIMIT}`);
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > 1e9) throw bad('pagination.offset', 'expected a whole number ≥ 0');
  return { limit, offset };
}

/** Rules across parts: what a metric needs of the dimensions and filters. */
function checkMetrics(metrics: ApiMetric[], dims: QueryDim[], filter: FilterNode | null) {
  const hasGoal = dims.some((d) => d.kind === 'goal') || filteredGoals(filter) !== null;
  const hasPage = dims.some((d) => d.kind === 'column' && d.dim.name === 'page');
  const namesPage = dims.some((d) => d.kind === 'column' && ['page', 'entry_page', 'exit_page', 'hostname'].includes(d.dim.name));
  metrics.forEach((m, i) => {
    if ((m === 'conversions' || m === 'conversion_rate') && !hasGoal) throw bad(`metrics[${i}]`, `${m} needs an event:goal dimension or an "is" filter on event:goal`);
    if (m === 'exit_rate' && !hasPage) throw bad(`metrics[${i}]`, `${m} needs the event:page dimension`);
    if (NEEDS_PAGE.includes(m) && !namesPage) throw bad(`metrics[${i}]`, `${m} needs a page dimension (event:page, event:hostname, visit:entry_page or visit:exit_page)`);
    if (m === 'exit_rate' && dims.some((d) => d.kind !== 'time' && !(d.kind === 'column' && (d.dim.level === 'visit' || d.dim.name === 'page')))) {
      throw bad(`metrics[${i}]`, 'exit_rate combines with event:page, visit: and time: dimensions only');
    }
  });
}

/** The body → the engine's query. `goals`: the site's goals, which event:goal names (by name or id). */
export function parseQuery(body: unknown, goals: SiteGoal[]): ApiQuery {
  if (!isObject(body)) throw invalidQuery('body: expected a JSON object {metrics, date_range, …}');
  for (const k of Object.keys(body)) if (!FIELDS.includes(k)) throw bad(k.slice(0, 60), `unknown field (expected ${FIELDS.join(', ')})`);
  if (body.metrics === undefined) throw bad('metrics', 'required');
  if (body.date_range === undefined) throw bad('date_range', 'required');
  const metrics = metricsOf(body.metrics);
  const dimensions = dimensionsOf(body.dimensions);
  const period = periodOf(body.date_range, body.date);
  const filter = parseFilterTree(body.filters, goals);
  checkMetrics(metrics, dimensions, filter);
  const orderBy = orderOf(body.order_by, metrics, dimensions);
  const include = includeOf(body.include);
  if (include.comparison && period.period === 'all') throw bad('include.comparison', 'date_range all has no comparison range');
  const { limit, offset } = pagingOf(body.pagination);
  const normalised = {
    metrics, date_range: body.date_range, ...(body.date !== undefined ? { date: body.date } : {}),
    dimensions: dimensions.map((d) => d.name), filters: body.filters ?? [],
    order_by: orderBy.map((o) => [o.key, o.desc ? 'desc' : 'asc']),
    include: { totals: include.totals, comparison: include.comparison, time_labels: include.timeLabels },
    pagination: { limit, offset },
  };
  return { metrics, dimensions, filter, period, orderBy, include, limit, offset, normalised };
}
