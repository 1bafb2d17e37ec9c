// The one breakdown builder (contract §8): group a scope by a registered dimension, rank, paginate, and
// complete each row with the metrics that live on the other table (e.g. bounce rate of a page's entries).
import type { Database } from '../storage/database.ts';
import { dimension, type Dimension } from './dimensions.ts';
import { eventsSource, visitsSource, type Scope } from './scope.ts';
import { finish, metricSql, percentage, selectMetrics, type Metric, type Table } from './metrics.ts';
import { rangeEcho } from './period.ts';
import { LABELLERS } from './labels.ts';
import { one, rows } from './run.ts';
import { ident, sql } from './sql.ts';

const ROW_METRICS = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'] as const satisfies Metric[];
const PAGE_METRICS = ['time_on_page', 'scroll_depth'] as const satisfies Metric[];

export type Paging = { limit: number; page: number };

const tableOf = (d: Dimension): Table => (d.level === 'visit' ? 'visits' : 'events');
const sourceOf = (t: Table, scope: Scope) => (t === 'visits' ? visitsSource(scope) : eventsSource(scope));
const countable = (m: Metric, t: Table) => {
  try { return metricSql(m, t), true; } catch { return false; }
};

/** Metrics of `names` counted on the other table, grouped by the dimension's companion column there. */
async function companionMetrics(db: Database, scope: Scope, dim: Dimension, metrics: Metric[], names: string[]) {
  const out = new Map<string, Record<string, any>>();
  if (!metrics.length || !dim.companion || !names.length) return out;
  const table: Table = tableOf(dim) === 'visits' ? 'events' : 'visits';
  const col = ident(dim.companion);
  const found = await rows(db, sql`SELECT ${col} AS name, ${selectMetrics(metrics, table)}
    FROM ${sourceOf(table, scope)} WHERE ${col} = ANY(${names}::VARCHAR[]) GROUP BY ALL`);
  for (const r of found) out.set(r.name, r);
  return out;
}

export async function breakdown(db: Database, scope: Scope, dimName: string, paging: Paging, withPageMetrics = false) {
  const dim = dimension(dimName);
  const table = tableOf(dim);
  const wanted: Metric[] = [...ROW_METRICS, ...(withPageMetrics ? PAGE_METRICS : [])];
  const here = wanted.filter((m) => countable(m, table));
  const there = wanted.filter((m) => !countable(m, table));
  const src = sourceOf(table, scope);
  const col = ident(dim.column);
  const offset = (paging.page - 1) * paging.limit;

  const [ranked, all] = await Promise.all([
    rows(db, sql`SELECT ${col} AS name, ${selectMetrics(here, table)}
      FROM ${src} GROUP BY ALL
      ORDER BY visitors DESC, pageviews DESC, name ASC NULLS LAST
      LIMIT ${paging.limit} OFFSET ${offset}`),
    one(db, sql`SELECT count(DISTINCT visitor_id) AS visitors, count(DISTINCT ${col}) + coalesce(max((${col} IS NULL)::INTEGER), 0) AS groups FROM ${src}`),
  ]);
  const names = ranked.map((r) => r.name).filter((n): n is string => n !== null);
  const extra = await companionMetrics(db, scope, dim, there, names);
  const totalVisitors = Number(all?.visitors ?? 0);
  const label = LABELLERS[dim.name];

  const results = ranked.map((r) => {
    const m = finish(wanted, { ...(r.name === null ? {} : extra.get(r.name)), ...r });
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
    pagination: { total: Number(all?.groups ?? 0), page: paging.page, limit: paging.limit },
  };
}
