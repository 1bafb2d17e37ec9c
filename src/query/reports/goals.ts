// Goal analytics: per-goal totals, one goal's totals and chart points — presets of the query API's event:goal
// dimension (parse/presets.ts; the completions relation, plan/completions-source.ts) — and a goal's completions
// list. The list is events, newest first, not figures of a query: it reads the planner's events (or the site's
// rows over all time) with the one goal match (sql/goals-match.ts), and pages like the visitor timeline.
import type { Database } from '../../storage/database.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import { goalMatch, matchCondition } from '../sql/goals-match.ts';
import { bucketLabels, type Interval } from '../sql/buckets.ts';
import { planFor, siteRows, type Scope } from '../plan/planner.ts';
import { sql } from '../../storage/sql.ts';
import { goalsPreset } from '../parse/presets.ts';
import { answerQuery } from './query.ts';
import { conversionRate, money } from '../sql/metrics.ts';
import { limitOffset, type Paging } from '../sql/paging.ts';
import { one, rows } from '../run.ts';

export type GoalDef = { id: string; name: string; type: string; path?: string | null; event_name?: string | null; value?: number | null };
export type Completion = { timestamp: string; visitor_id: string | null; page: string | null; event_name: string | null; revenue: number };
export type GoalMetrics = { visitors: number; completions: number; conversion_rate: number; revenue: number };

/** A completion is worth the event's own revenue plus the goal's value. */
const revenueOf = (eventRevenue: number, completions: number, value?: number | null) => money(eventRevenue + (value ?? 0) * completions);

type Figures = [visitors: number, completions: number, revenue: number];

/**
 * The goals preset (parse/presets.ts) run by the query API's stages, per goal id and (with `interval`) per
 * bucket: each goal goes in under its id, so goals sharing a name stay apart.
 */
async function perGoal(db: Database, scope: Scope, goals: GoalDef[], interval?: Interval): Promise<Map<string, Figures>> {
  const keyed = goals.map((g) => ({ ...g, name: g.id }));
  const found = await answerQuery(db, { site: scope.site, files: scope.files }, scope.range, keyed, goalsPreset(scope.filters, interval));
  return new Map(found.results.map((r) => [r.dimensions.join('\u0000'), r.metrics as Figures]));
}

const metricsOf = (f: Figures | undefined, g: GoalDef, total: number): GoalMetrics => {
  const [visitors, completions, revenue] = f ?? [0, 0, 0];
  return { visitors, completions, conversion_rate: conversionRate(visitors, total), revenue: revenueOf(revenue, completions, g.value) };
};

/**
 * Totals for every goal over the scope: the goals preset, and the scope's visitors (counted on the visits,
 * as /analytics/stats counts them, every filter applied) as the conversion rate's denominator.
 */
export async function goalsStats(db: Database, scope: Scope, goals: GoalDef[]) {
  if (goals.length === 0) return [];
  const plan = planFor(db, scope);
  const [byGoal, all] = await Promise.all([perGoal(db, scope, goals), plan.visitors('visits').then((q) => one(db, q))]);
  const total = Number(all?.visitors ?? 0);
  return goals.map((g) => ({ id: g.id, name: g.name, ...metricsOf(byGoal.get(g.id), g, total) }));
}

/**
 * One goal's totals (as in goalsStats) and a point per interval bucket, every bucket present, empty ones
 * zero. Points carry the goal's own figures only: a per-bucket conversion rate would need a distinct count
 * of all visitors per bucket, the most expensive part of the report, for a figure charts rarely show.
 */
export async function goalDetail(db: Database, scope: Scope, goal: GoalDef, interval: Interval) {
  const labels = bucketLabels(scope.range, interval);
  const [[totals], byBucket] = await Promise.all([goalsStats(db, scope, [goal]), perGoal(db, scope, [goal], interval)]);
  const { id: _id, name: _name, ...metrics } = totals!;
  return {
    metrics,
    points: labels.map((date) => {
      const [visitors, completions, revenue] = byBucket.get(`${goal.id}\u0000${date}`) ?? [0, 0, 0];
      return { date, visitors, completions, revenue: revenueOf(revenue, completions, goal.value) };
    }),
  };
}

/** Completions newest first, with the visitor's profile id; no scope means all time, unfiltered. */
export async function goalCompletions(db: Database, files: ParquetManifest, siteId: string, goal: GoalDef, page: Paging, scope?: Scope) {
  const src = scope ? planFor(db, scope).events() : siteRows(files, 'events', siteId);
  const c = matchCondition(goalMatch(goal));
  // Top-N over the events first, then the profile lookup for that page only; the count is its own scan.
  const q = sql`SELECT p.ts AS timestamp, v.id::VARCHAR AS visitor_id, p.path AS page, p.event_name,
      (coalesce(p.revenue, 0) + ${goal.value ?? 0})::DOUBLE AS revenue
    FROM (SELECT e.ts, e.visitor_id, e.path, e.event_name, e.revenue FROM ${src} e WHERE ${c}
          ORDER BY e.ts DESC, e.visitor_id ${limitOffset(page)}) p
    LEFT JOIN visitors v ON v.site_id = ${siteId} AND v.visitor_id = p.visitor_id
    ORDER BY p.ts DESC, p.visitor_id`;
  const n = sql`SELECT count(*) AS n FROM ${src} e WHERE ${c}`;
  const [hits, count] = await Promise.all([rows(db, q), one(db, n)]);
  return {
    completions: hits.map(({ revenue, ...r }) => ({ ...r, revenue: money(revenue) }) as Completion),
    pagination: { total: count!.n as number, page: page.page, limit: page.limit },
  };
}
