// Goal analytics: per-goal totals, one goal's totals and chart points, and its completions list.
// Events are read through the planner only; goal matching is in goals-match.ts.
import type { Database } from '../../storage/database.ts';
import { dialectOf, type Dialect, type Engine, type Runner } from '../sql/dialect.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import { anyGoalCondition, goalMatch, matchCondition } from '../sql/goals-match.ts';
import { bucketLabels, bucketLabelSql, bucketSql, type Interval } from '../sql/buckets.ts';
import { planFor, siteRows, type Scope } from '../plan/planner.ts';
import { join, sql, frag, type Fragment } from '../../storage/sql.ts';
import { conversionRate, money } from '../sql/metrics.ts';
import { limitOffset, type Paging } from '../sql/paging.ts';
import { one, rows } from '../run.ts';

export type GoalDef = { id: string; name: string; type: string; path?: string | null; event_name?: string | null; value?: number | null };
export type Completion = { timestamp: string; visitor_id: string | null; page: string | null; event_name: string | null; revenue: number };
export type GoalMetrics = { visitors: number; completions: number; conversion_rate: number; revenue: number };

/** A completion is worth the event's own revenue plus the goal's value. */
const revenueOf = (eventRevenue: number, completions: number, value?: number | null) => money(eventRevenue + (value ?? 0) * completions);

/** Per visitor: completions and event revenue of each goal (goal i → c_i, r_i). */
const perVisitor = (goals: GoalDef[], d: Dialect): Fragment =>
  join(goals.map((g, i) => {
    const c = matchCondition(goalMatch(g), d);
    return sql`count(*) FILTER (WHERE ${c}) AS ${frag(`c_${i}`)}, sum(revenue) FILTER (WHERE ${c}) AS ${frag(`r_${i}`)}`;
  }), ', ');

/** Per goal, from the per-visitor rows: converting visitors, completions, event revenue. */
const perGoal = (goals: GoalDef[]): Fragment =>
  frag(goals.map((_, i) => `count(*) FILTER (WHERE c_${i} > 0) AS visitors_${i}, coalesce(sum(c_${i}), 0) AS completions_${i}, coalesce(sum(r_${i}), 0)::DOUBLE AS revenue_${i}`).join(', '));

const metricsOf = (r: Record<string, any> | undefined, g: GoalDef, suffix = ''): GoalMetrics => {
  const visitors = r?.[`visitors${suffix}`] ?? 0;
  const completions = r?.[`completions${suffix}`] ?? 0;
  return { visitors, completions, conversion_rate: conversionRate(visitors, r?.total ?? 0), revenue: revenueOf(r?.[`revenue${suffix}`] ?? 0, completions, g.value) };
};

/**
 * Totals for every goal over the scope. Only events completing some goal are aggregated; the conversion
 * rate's denominator is the scope's visitors counted on the visits table, as /analytics/stats counts them.
 */
export async function goalsStats(db: Runner, scope: Scope, goals: GoalDef[]) {
  const d = dialectOf(scope);
  if (goals.length === 0) return [];
  // One hash aggregate on the visitor instead of a distinct-count set per goal.
  const plan = planFor(db, scope);
  const q = sql`WITH per AS (
      SELECT visitor_id, ${perVisitor(goals, d)} FROM ${plan.events()} e WHERE ${anyGoalCondition(goals.map(goalMatch), d)} GROUP BY visitor_id
    )
    SELECT (SELECT count(DISTINCT visitor_id) FROM ${plan.visits()} v) AS total, ${perGoal(goals)} FROM per`;
  const row = await one(db, q);
  return goals.map((g, i) => ({ id: g.id, name: g.name, ...metricsOf(row, g, `_${i}`) }));
}

/**
 * One goal's totals (as in goalsStats) and a point per interval bucket, every bucket present, empty ones
 * zero. Points carry the goal's own figures only: a per-bucket conversion rate would need a distinct count
 * of all visitors per bucket, the most expensive part of the report, for a figure charts rarely show.
 */
export async function goalDetail(db: Runner, scope: Scope, goal: GoalDef, interval: Interval) {
  const d = dialectOf(scope);
  // Bucket on the local start (plain arithmetic), format only the grouped rows.
  const start = bucketSql(interval, scope.range, 'ts', d);
  const c = matchCondition(goalMatch(goal), d);
  const q = sql`SELECT ${bucketLabelSql(interval, 'b', d)} AS bucket, count(DISTINCT visitor_id) AS visitors, count(*) AS completions,
      coalesce(sum(revenue), 0)::DOUBLE AS revenue
    FROM (SELECT ${start} AS b, visitor_id, revenue FROM ${planFor(db, scope).events()} e WHERE ${c}) GROUP BY b`;
  const [[totals], found] = await Promise.all([goalsStats(db, scope, [goal]), rows(db, q)]);
  const { id: _id, name: _name, ...metrics } = totals!;
  const byBucket = new Map(found.map((r) => [r.bucket, r]));
  return {
    metrics,
    points: bucketLabels(scope.range, interval).map((date) => {
      const r = byBucket.get(date);
      return { date, visitors: r?.visitors ?? 0, completions: r?.completions ?? 0, revenue: revenueOf(r?.revenue ?? 0, r?.completions ?? 0, goal.value) };
    }),
  };
}

/**
 * Completions newest first, with the visitor's profile id; no scope means all time, unfiltered. The events come
 * from the analytics engine (top-N first, the count its own scan), the profile ids of that page from DuckDB's
 * visitors table.
 */
export async function goalCompletions(db: Database, engine: Engine, files: ParquetManifest, siteId: string, goal: GoalDef, page: Paging, scope?: Scope) {
  const d = engine.dialect;
  const src = scope ? planFor(engine, scope).events() : siteRows(files, 'events', siteId, undefined, d);
  const c = matchCondition(goalMatch(goal), d);
  const q = sql`SELECT ${d.isoTime(frag('ts'))} AS timestamp, visitor_id, path AS page, event_name,
      coalesce(revenue, 0)::DOUBLE + ${goal.value ?? 0} AS revenue
    FROM ${src} e WHERE ${c} ORDER BY ts DESC, visitor_id ${limitOffset(page)}`;
  const n = sql`SELECT count(*) AS n FROM ${src} e WHERE ${c}`;
  const [hits, count] = await Promise.all([rows(engine, q), one(engine, n)]);
  const ids = [...new Set(hits.map((h) => Math.trunc(Number(h.visitor_id))))];
  // Integer IDs of the page's events (never request text), written as integers.
  const profiles = ids.length
    ? await rows(db, sql`SELECT visitor_id, id::VARCHAR AS id FROM visitors WHERE site_id = ${siteId} AND visitor_id IN (${frag(ids.join(', '))})`)
    : [];
  const idOf = new Map(profiles.map((p) => [Number(p.visitor_id), p.id as string]));
  return {
    completions: hits.map(({ revenue, visitor_id, ...r }) => ({ ...r, visitor_id: idOf.get(Number(visitor_id)) ?? null, revenue: money(revenue) }) as Completion),
    pagination: { total: Number(count!.n), page: page.page, limit: page.limit },
  };
}
