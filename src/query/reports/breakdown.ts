// The one breakdown builder (contract §8): group a scope by a registered dimension, rank, paginate, and
// complete each row with the metrics that live on the other table (e.g. bounce rate of a page's entries).
import { dialectOf, type Runner } from '../sql/dialect.ts';
import { dimension, type Dimension } from '../parse/dimensions.ts';
import { planFor, type Groups, type Plan, type Scope } from '../plan/planner.ts';
import { finish, percentage, selectMetrics, countedOn, type Metric } from '../sql/metrics.ts';
import { rangeEcho } from '../parse/period.ts';
import { LABELLERS } from './labels.ts';
import { offsetOf, type Paging } from '../sql/paging.ts';
import { rankGroups } from './ranking.ts';
import { rankByMasks } from './visitor-masks.ts';
import { one, rows } from '../run.ts';
import { frag, ident, sql, type Fragment } from '../../storage/sql.ts';

const ROW_METRICS = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'] as const satisfies Metric[];
const PAGE_METRICS = ['time_on_page', 'scroll_depth'] as const satisfies Metric[];

type Stored = 'visits' | 'events';
const tableOf = (d: Dimension): Stored => (d.level === 'visit' ? 'visits' : 'events');

/** Rows of `q` keyed by name. */
async function byName(db: Runner, q: Fragment) {
  return new Map((await rows(db, q)).map((r) => [r.name as string, r]));
}

/**
 * Metrics of `names` counted on the other table, grouped by the dimension's companion column there.
 * Every group is counted and the names kept afterwards: hashing each row into its group costs half of
 * testing it against the names (entry pages over 12 months: 41 → 19 ms).
 */
function companionQuery(plan: Plan, dim: Dimension, metrics: Metric[], names: string[] | 'all'): Fragment {
  const table: Stored = tableOf(dim) === 'visits' ? 'events' : 'visits';
  const col = ident(dim.companion!);
  return sql`SELECT ${col} AS name, ${selectMetrics(metrics, table)}
    FROM ${table === 'visits' ? plan.visits() : plan.events()} GROUP BY ALL ${names === 'all' ? frag('') : sql`HAVING ${dialectOf(plan.scope).inList(col, names)}`}`;
}

export async function breakdown(db: Runner, scope: Scope, dimName: string, paging: Paging, withPageMetrics = false) {
  const dim = dimension(dimName);
  const table = tableOf(dim);
  const here = ROW_METRICS.filter((m) => countedOn(m, table));
  const there = ROW_METRICS.filter((m) => !countedOn(m, table));
  // Where the first-occurrence marks hold, a page's visitors and visits and the scope's visitors are sums:
  // every page is counted exactly in one pass (as the `few` dimensions are), which also yields the total;
  // a `few` visit attribute's pass yields the total the same way.
  const plan = planFor(db, scope);
  const src = await plan.groups(table, dim.column, dim.few);
  const byPage = src.scopeVisitors !== undefined;
  // Visits counted distinct per group (acquisition attributes, or any visit attribute where the marks do not hold)
  // count their candidates' visitors as bits per visitor on DuckDB (visitor-masks.ts).
  const rankOf = (g: Groups) => (g.table === 'visits' && dialectOf(scope).name === 'duckdb'
    ? rankByMasks(db, g.from, dim.column, here, offsetOf(paging), paging.limit, g.scopeVisitors)
    : rankGroups(db, g.from, dim.column, here, g.table, offsetOf(paging), paging.limit, dim.few || byPage, g.scopeVisitors, dialectOf(scope).inList));
  const rank = rankOf(src).then((r) => (src.ifChanged && Number(r.tally?.changed_rows ?? 0) > 0 ? rankOf(src.ifChanged) : r));

  const pageColumn = dim.level === 'event' ? dim.column : dim.companion;
  const none = new Map<string, Record<string, any>>();
  /** The other table's metrics and the page metrics of `names`: after ranking, or of every page beside it. */
  const complete = (names: string[] | 'all') => Promise.all([
    there.length && dim.companion && names.length ? byName(db, companionQuery(plan, dim, there, names)) : none,
    withPageMetrics && pageColumn && names.length ? byName(db, plan.engagement(pageColumn, names)) : none,
  ]);
  // With marks every page is counted anyway, and completing them all side by side keeps both cores busy
  // through the ranking's single-threaded stretches (30 days: 110–120 → ~90 ms).
  const early = byPage ? complete('all') : undefined;
  // Its error surfaces where it is awaited below; should the ranking fail first, it would otherwise be an
  // unhandled rejection, which ends the process.
  early?.catch(() => {});
  const [ranked, all] = await Promise.all([rank, byPage ? rank.then((r) => ({ visitors: r.tally!.scope_visitors })) : plan.visitors(table).then((q) => one(db, q))]);
  const [extra, engagement] = await (early ?? complete(ranked.rows.map((r) => r.name).filter((n): n is string => n !== null)));
  const totalVisitors = Number(all?.visitors ?? 0);
  const label = LABELLERS[dim.name];

  const results = ranked.rows.map((r) => {
    const merged = r.name === null ? r : { ...extra.get(r.name), ...engagement.get(r.name), ...r };
    const m = finish([...ROW_METRICS, ...PAGE_METRICS], merged);
    const name = r.name ?? dim.none;
    return {
      name,
      ...(label ? { label: r.name === null ? dim.none : label(name) } : {}),
      visitors: m.visitors!, visits: m.visits!, pageviews: m.pageviews!,
      bounce_rate: m.bounce_rate!, visit_duration: m.visit_duration!,
      percentage: percentage(m.visitors!, totalVisitors),
      ...(withPageMetrics ? { time_on_page: m.time_on_page, scroll_depth: m.scroll_depth } : {}),
    };
  });
  return {
    range: rangeEcho(scope.range),
    dimension: dim.name,
    results,
    pagination: { total: ranked.groups, page: paging.page, limit: paging.limit },
  };
}
