// The query API's run stage: a parsed query (parse/query-parse.ts) over a site → rows of dimensions and
// metrics, with totals, the comparison range and every time label when asked. The planner picks the
// relations (plan/planner.ts); the SQL is composed by sql/query-parts.ts, as one statement per answer part.
import type { Database } from '../../storage/database.ts';
import { dialectOf, duckdbEngine, type Dialect, type Engine, type Runner } from '../sql/dialect.ts';
import { frag, join, sql, type Fragment } from '../../storage/sql.ts';
import { planFor } from '../plan/planner.ts';
import type { Scope, ScopeSite } from '../plan/scope.ts';
import { comparisonRange, rangeEcho, resolvePeriod, realtimeRange, type Range } from '../parse/period.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import type { ApiQuery, QueryMetric } from '../parse/query-parse.ts';
import { filteredGoals, withoutGoals, type SiteGoal } from '../parse/filter-tree.ts';
import { flatFilters } from '../parse/filter-tree.ts';
import type { Filter, FilterNode } from '../parse/filter-types.ts';
import { bucketLabels, type Interval } from '../sql/buckets.ts';
import { labelledColumns, pageAttrColumns, percentageBase, rawColumns, visitAttrColumns, queryParts, SCOPE_ROW, type PartsInput } from '../sql/query-parts.ts';
import { averageOrderValue, change, conversionRate, money, percentage, viewsPerVisit } from '../sql/metrics.ts';
import { rows } from '../run.ts';
import { firstVisitDate } from '../parse/first-visit.ts';
import { strategyFor } from '../plan/query-strategy.ts';
import { byReport, rankedReport } from './query-presets.ts';
import type { QueryAnswer, QueryRow } from './query-answer.ts';

const MAX_TIME_LABELS = 10_000;
const CHART_BUCKETS = 1000;
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** A filter tree as the scope's filters: the flat list the reports use when it is one, else one nested filter. */
export function scopeFilters(tree: FilterNode | null): Filter[] {
  const flat = flatFilters(tree);
  if (flat) return flat;
  return [{ dimension: '(nested)', operator: 'is', values: [], target: { kind: 'tree', node: tree! } }];
}

/** A row's metric from its raw columns, rounded as contract §7 says. */
function finishMetric(m: QueryMetric, r: Record<string, unknown>, totalVisitors: number): number | null {
  switch (m) {
    case 'visitors': case 'visits': case 'pageviews': case 'events': case 'orders': case 'conversions':
      return Math.round(num(r[m]));
    case 'bounce_rate': case 'visit_duration':
      return r[m] === null || r[m] === undefined ? 0 : Math.round(Number(r[m]));
    case 'time_on_page': case 'scroll_depth':
      return r[m] === null || r[m] === undefined ? null : Math.round(Number(r[m]));
    case 'views_per_visit': return viewsPerVisit(num(r.pageviews), num(r.visits));
    case 'percentage': return percentage(num(r.visitors), totalVisitors);
    case 'revenue': return money(num(r.revenue));
    case 'average_order_value': return averageOrderValue(num(r.revenue), num(r.orders));
    case 'conversion_rate': return conversionRate(num(r.visitors), num(r.denominator));
    case 'completion_revenue': return num(r.completion_revenue);
    case 'exit_rate': return num(r.pageviews) ? round((100 * num(r.exits)) / num(r.pageviews), 1) : 0;
  }
}

/** The SQL value a metric sorts by (unrounded where rounding would only add ties). */
const SORT: Record<QueryMetric, string> = {
  visitors: 'coalesce(visitors, 0)', visits: 'coalesce(visits, 0)', pageviews: 'coalesce(pageviews, 0)', events: 'coalesce(events, 0)',
  orders: 'coalesce(orders, 0)', conversions: 'coalesce(conversions, 0)', bounce_rate: 'round(bounce_rate)', visit_duration: 'round(visit_duration)',
  time_on_page: 'round(time_on_page)', scroll_depth: 'round(scroll_depth)', views_per_visit: 'pageviews / nullif(visits, 0)',
  percentage: 'coalesce(visitors, 0)', revenue: 'coalesce(revenue, 0)', average_order_value: 'revenue / nullif(orders, 0)',
  conversion_rate: 'visitors / nullif(denominator, 0)', exit_rate: 'exits / nullif(pageviews, 0)', completion_revenue: 'coalesce(completion_revenue, 0)',
};

/** `labels`: every bucket label of a range, worked out once per run (hours over 90 days are 2,160 of them). */
type Run = { q: ApiQuery; db: Runner; goals: SiteGoal[]; labels: (range: Range, interval: Interval) => string[] };

function labelCache(): Run['labels'] {
  const known = new Map<string, string[]>();
  return (range, interval) => {
    const key = `${range.fromUtc} ${range.toUtc} ${range.timezone} ${interval}`;
    let found = known.get(key);
    if (!found) known.set(key, (found = bucketLabels(range, interval, MAX_TIME_LABELS)));
    return found;
  };
}

/** The scope of the query over `range` (and its plan, and the plan without goal filters for conversion rates). */
function plans(run: Run, base: Omit<Scope, 'range' | 'filters'>, range: Range): Pick<PartsInput, 'plan' | 'denominator'> {
  const plan = planFor(run.db, { ...base, range, filters: scopeFilters(run.q.filter) });
  if (!run.q.metrics.includes('conversion_rate')) return { plan };
  const rest = withoutGoals(run.q.filter);
  return { plan, denominator: planFor(run.db, { ...base, range, filters: rest ? scopeFilters(rest) : [] }) };
}

/**
 * ORDER BY: the requested keys, then the default (time ascending, else the first metric descending), then every
 * dimension ascending; a missing value ("(none)") sorts last, as in the breakdown reports.
 */
function orderSql(q: ApiQuery): Fragment {
  const keys = [...q.orderBy];
  const time = q.dimensions.find((d) => d.kind === 'time');
  if (!keys.length) keys.push(time ? { key: time.name, desc: false } : { key: q.metrics[0]!, desc: true });
  for (const d of q.dimensions) if (!keys.some((k) => k.key === d.name)) keys.push({ key: d.name, desc: false });
  return join(keys.map((k) => {
    const i = q.dimensions.findIndex((d) => d.name === k.key);
    const dir = frag(k.desc ? 'DESC' : 'ASC');
    if (i < 0) return sql`${frag(SORT[k.key as QueryMetric])} ${dir} NULLS LAST`;
    const d = q.dimensions[i]!;
    const col = frag(`d${i}`);
    if (d.kind === 'time' || d.kind === 'goal') return sql`${col} ${dir}`;
    return sql`${col} = ${d.kind === 'column' ? d.dim.none : '(none)'}, ${col} ${dir}`;
  }), ', ');
}

/**
 * One statement: every part, joined on the dimension columns, ordered and paginated, with the row count. With
 * `scopeRow`, the rows also carry `scope_visitors` (percentage's base) when a part could count it in its own scan.
 */
function partsStatement(run: Run, p: Pick<PartsInput, 'plan' | 'denominator' | 'pageAttr' | 'visitAttr'>, dims: ApiQuery['dimensions'], paging: { limit: number; offset: number } | null, scopeRow = false, counted = true) {
  const found = queryParts({ ...p, dims, metrics: run.q.metrics, goals: run.goals, conversionGoals: filteredGoals(run.q.filter), scopeRow });
  // Parts that find rows first; the decorating ones join onto them (alone, a decorating part finds the rows).
  const finders = found.filter((x) => !x.decorates);
  const parts = [...(finders.length ? finders : found.slice(0, 1)), ...found.filter((x) => x.decorates && (finders.length || x !== found[0]))];
  const names = dims.map((_, i) => `d${i}`);
  const dialect = dialectOf(p.plan.scope);
  // A part holding the scope's row is computed once; its groups are the part, its scope row a column of every row.
  const ctes = join(parts.map((part, i) => (part.scopeRow
    ? sql`${frag(dialect.cteOnce(`s${i}`))} (${part.sql}), ${frag(`p${i}`)} AS (SELECT ${dialect.starExcept([SCOPE_ROW])} FROM ${frag(`s${i}`)} WHERE ${frag(SCOPE_ROW)} = 0)`
    : sql`${frag(`p${i}`)} AS (${part.sql})`)), ', ');
  const scoped = parts.findIndex((part) => part.scopeRow);
  const scopeVisitors = scoped >= 0 ? frag(`, (SELECT visitors FROM s${scoped} WHERE ${SCOPE_ROW} <> 0) AS scope_visitors`) : frag('');
  let from = frag('p0');
  parts.slice(1).forEach((part, i) => {
    const on = part.dims.length ? ` USING (${part.dims.join(', ')})` : ' ON TRUE';
    const kind = !names.length ? 'CROSS JOIN' : part.decorates ? 'LEFT JOIN' : 'FULL JOIN';
    from = frag(`${from.sql} ${kind} p${i + 1}${kind === 'CROSS JOIN' ? '' : on}`);
  });
  const cols = sql`${labelledColumns(dims, dialect)}${frag(counted ? ', count(*) OVER () AS total_rows' : '')}${scopeVisitors}`;
  const order = names.length ? sql` ORDER BY ${orderSql({ ...run.q, dimensions: dims })}` : frag('');
  const page = paging ? sql` LIMIT ${paging.limit} OFFSET ${paging.offset}` : frag('');
  return { statement: sql`WITH ${ctes} SELECT ${cols} FROM ${from}${order}${page}`, scopeVisitors: scoped >= 0 };
}

const runParts = (run: Run, p: Pick<PartsInput, 'plan' | 'denominator'>, dims: ApiQuery['dimensions'], paging: { limit: number; offset: number } | null) =>
  rows(run.db, partsStatement(run, p, dims, paging).statement);

function finishRows(q: ApiQuery, found: Record<string, unknown>[], totalVisitors: number, dims = q.dimensions): QueryRow[] {
  return found.map((r) => ({
    dimensions: dims.map((_, i) => String(r[`d${i}`])),
    metrics: q.metrics.map((m) => finishMetric(m, r, totalVisitors)),
  }));
}

/** Totals and (for percentage) the visitors of the whole query. */
async function totalsOf(run: Run, p: Pick<PartsInput, 'plan' | 'denominator'>) {
  const [t] = await runParts(run, p, [], null);
  return t ?? {};
}

/** Time as the only dimension with time_labels: every bucket a row, empty ones zero, then ordered and paged here. */
function zeroFilled(q: ApiQuery, found: Record<string, unknown>[], labels: string[]): Record<string, unknown>[] {
  const byLabel = new Map(found.map((r) => [String(r.d0), r]));
  const position = new Map(labels.map((l, i) => [l, i]));
  const all = labels.map((l) => byLabel.get(l) ?? { d0: l });
  const keys = q.orderBy.length ? q.orderBy : [{ key: q.dimensions[0]!.name, desc: false }];
  const at = (r: Record<string, unknown>) => position.get(String(r.d0))!;
  const value = (r: Record<string, unknown>, key: string) => (key === q.dimensions[0]!.name ? at(r) : finishMetric(key as QueryMetric, r, 1) ?? -Infinity);
  if (keys.length === 1 && keys[0]!.key === q.dimensions[0]!.name && !keys[0]!.desc) return all;
  return all.sort((a, b) => {
    for (const k of keys) {
      const d = (value(a, k.key) as number) - (value(b, k.key) as number);
      if (d) return k.desc ? -d : d;
    }
    return at(a) - at(b);
  });
}

async function answerFor(run: Run, base: Omit<Scope, 'range' | 'filters'>, range: Range, paged: boolean) {
  const { q } = run;
  const p = plans(run, base, range);
  const time = q.dimensions.find((d) => d.kind === 'time');
  const labels = time && q.include.timeLabels ? run.labels(range, time.interval) : undefined;
  const fill = labels !== undefined && q.dimensions.length === 1;
  const pct = q.metrics.includes('percentage');
  // The marks only count visitors and visits: asked of the database only when the query wants those.
  const raw = rawColumns(q.metrics);
  const counted = raw.has('visitors') || raw.has('visits');
  const attrs = counted ? pageAttrColumns(q.dimensions) : null;
  const visitAttrs = raw.has('visitors') ? visitAttrColumns(q.dimensions) : null;
  const [pageAttr, visitAttr] = await Promise.all([attrs ? p.plan.pageAttrEvents(attrs) : null, visitAttrs ? p.plan.attrVisits(visitAttrs) : null]);
  const main = partsStatement(run, { ...p, pageAttr, visitAttr }, q.dimensions, paged && !fill ? { limit: q.limit, offset: q.offset } : null, pct);
  // Percentage's base comes with the rows where a part counted it in its own scan; else from a statement beside.
  const [found, totals, pctBase] = await Promise.all([
    rows(run.db, main.statement),
    q.include.totals ? totalsOf(run, p) : Promise.resolve(undefined),
    pct && !main.scopeVisitors ? rows(run.db, percentageBase(p.plan, q.dimensions)) : Promise.resolve(undefined),
  ]);
  const totalVisitors = num(main.scopeVisitors ? found[0]?.scope_visitors : pctBase?.[0]?.visitors);
  let list = found;
  let totalRows = num(found[0]?.total_rows);
  if (fill) {
    list = zeroFilled(q, found, labels!);
    totalRows = list.length;
    if (paged) list = list.slice(q.offset, q.offset + q.limit);
  }
  return {
    results: finishRows(q, list, totalVisitors),
    // The totals row is the whole scope: its percentage is 100 (of itself).
    totals: totals ? Object.fromEntries(q.metrics.map((m) => [m, finishMetric(m, totals, num(totals.visitors))])) : undefined,
    totalRows,
    labels,
  };
}

/** The previous range's row for each current row: same non-time values, the time bucket at the same position. */
function aligned(current: QueryRow[], previous: QueryRow[], q: ApiQuery, labels: string[], prevLabels: string[], metrics: QueryMetric[]) {
  const t = q.dimensions.findIndex((d) => d.kind === 'time');
  const key = (r: QueryRow) => r.dimensions.map((v, i) => (i === t ? '' : v)).join('\u0000');
  const prevAt = new Map(prevLabels.map((l, i) => [l, i]));
  const curAt = new Map(labels.map((l, i) => [l, i]));
  const prev = new Map(previous.map((r) => [`${key(r)}\u0001${t >= 0 ? prevAt.get(r.dimensions[t]!) : ''}`, r]));
  return current.map((r) => {
    const at = t >= 0 ? curAt.get(r.dimensions[t]!) ?? -1 : -1;
    const match = prev.get(`${key(r)}\u0001${t >= 0 ? at : ''}`);
    const dimensions = r.dimensions.map((v, i) => (i === t ? prevLabels[at] ?? v : v));
    const ms = match?.metrics ?? metrics.map((m) => (m === 'time_on_page' || m === 'scroll_depth' ? null : 0));
    return { dimensions, metrics: ms, change: r.metrics.map((v, i) => change(v, ms[i] ?? null)) };
  });
}

/**
 * A query's page as one statement without its row count, and how its rows become the answer's: for a report
 * that asks several such queries in one statement (realtime). Only for a query of the parts without totals,
 * comparison, time labels or percentage (their extra statements are not composed here).
 */
export function pageStatement(db: Runner, base: Omit<Scope, 'range' | 'filters'>, range: Range, goals: SiteGoal[], q: ApiQuery) {
  if (strategyFor(q).kind !== 'parts' || q.include.totals || q.include.comparison || q.include.timeLabels || q.metrics.includes('percentage')) {
    throw new Error('pageStatement: a query of the parts without totals, comparison, time labels or percentage');
  }
  const run: Run = { q, db, goals, labels: labelCache() };
  const { statement } = partsStatement(run, plans(run, base, range), q.dimensions, { limit: q.limit, offset: q.offset }, false, false);
  return { statement, finish: (found: Record<string, unknown>[]) => finishRows(q, found, 0) };
}

/** Run a parsed query for a site. `goals`: the site's goals (event:goal). */
export async function runQuery(src: { engine?: Engine; db: Database; files: ParquetManifest; snapshot?: Runner }, site: ScopeSite, goals: SiteGoal[], q: ApiQuery): Promise<QueryAnswer> {
  const { files } = src;
  const db = src.engine ?? duckdbEngine(src.snapshot ?? src.db);
  const range = q.period.period === 'realtime' ? realtimeRange(site.timezone) : await resolvePeriod(q.period, site.timezone, () => firstVisitDate(src.snapshot ?? src.db, files, site));
  return answerQuery(db, { site, files, dialect: db.dialect }, range, goals, q);
}

/** Run a parsed query over a resolved range: the reports' presets call this with the range they resolved. */
export async function answerQuery(db: Runner, base: { site: ScopeSite; files: ParquetManifest; dialect?: Dialect }, range: Range, goals: SiteGoal[], q: ApiQuery): Promise<QueryAnswer> {
  const run: Run = { q, db, goals, labels: labelCache() };
  const strategy = strategyFor(q);
  // The chart report stops at 1,000 buckets (its contract); longer series are counted in parts.
  const interval = strategy.kind === 'series' || strategy.kind === 'revenue' ? strategy.interval : null;
  const chartable = !interval || run.labels(range, interval).length <= CHART_BUCKETS;
  if ((strategy.kind === 'totals' || strategy.kind === 'series' || strategy.kind === 'revenue') && chartable) return byReport(db, q, { ...base, range }, strategy);
  if (strategy.kind === 'ranked') {
    const [b, totals] = await Promise.all([
      rankedReport(db, { ...base, range }, q),
      q.include.totals ? totalsOf(run, plans(run, base, range)) : Promise.resolve(undefined),
    ]);
    return {
      results: b.results.map((r) => ({ dimensions: [r.name], metrics: q.metrics.map((m) => (r as Record<string, any>)[m] ?? null) })),
      ...(totals ? { totals: Object.fromEntries(q.metrics.map((m) => [m, finishMetric(m, totals, num(totals.visitors))])) } : {}),
      meta: { range: rangeEcho(range), total_rows: b.pagination.total },
      query: q.normalised,
    };
  }
  const prevRange = q.include.comparison ? comparisonRange(range, q.include.comparison) : null;
  const [cur, prev] = await Promise.all([
    answerFor(run, base, range, true),
    prevRange ? answerFor({ ...run, q: { ...q, include: { ...q.include, timeLabels: true } } }, base, prevRange, false) : Promise.resolve(null),
  ]);
  const time = q.dimensions.find((d) => d.kind === 'time');
  const labels = time ? (cur.labels ?? run.labels(range, time.interval)) : [];
  return {
    results: cur.results,
    ...(cur.totals ? { totals: cur.totals } : {}),
    ...(prev && prevRange ? {
      comparison: {
        range: rangeEcho(prevRange),
        ...(prev.totals ? { totals: prev.totals } : {}),
        results: aligned(cur.results, prev.results, q, labels, prev.labels ?? [], q.metrics),
      },
    } : {}),
    meta: { range: rangeEcho(range), total_rows: cur.totalRows, ...(cur.labels ? { time_labels: cur.labels } : {}) },
    query: q.normalised,
  };
}
