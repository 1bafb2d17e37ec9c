// Goal analytics: per-goal totals, one goal's totals and chart points — presets of the query API's event:goal
// dimension (parse/presets.ts; the completions relation, plan/completions-source.ts) — and a goal's completions
// list. The list is events, newest first, not figures of a query: it reads the planner's events (or the site's
// rows over all time) with the one goal match (sql/goals-match.ts), and pages like the visitor timeline.
import type { Database } from '../../storage/database.ts';
import type { Engine, Runner } from '../sql/dialect.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import { goalMatch, matchCondition } from '../sql/goals-match.ts';
import { bucketLabels, type Interval } from '../sql/buckets.ts';
import { planFor, siteProfiles, siteRows, type Scope } from '../plan/planner.ts';
import { frag, sql } from '../../storage/sql.ts';
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
async function perGoal(db: Runner, scope: Scope, goals: GoalDef[], interval?: Interval): Promise<Map<string, Figures>> {
  const keyed = goals.map((g) => ({ ...g, name: g.id }));
  const found = await answerQuery(db, { site: scope.site, files: scope.files, dialect: scope.dialect }, scope.range, keyed, goalsPreset(scope.filters, interval));
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
export async function goalsStats(db: Runner, scope: Scope, goals: GoalDef[]) {
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
export async function goalDetail(db: Runner, scope: Scope, goal: GoalDef, interval: Interval) {
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

/**
 * Completions newest first, with the visitor's profile id; no scope means all time, unfiltered. The events come
 * from the analytics engine (top-N first, the count its own scan), the profile ids of that page from the
 * planner's siteProfiles() (DuckDB's visitors table on every engine).
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
    ? await rows(db, sql`SELECT visitor_id, id::VARCHAR AS id FROM ${siteProfiles(siteId)} WHERE visitor_id IN (${frag(ids.join(', '))})`)
    : [];
  const idOf = new Map(profiles.map((p) => [Number(p.visitor_id), p.id as string]));
  return {
    completions: hits.map(({ revenue, visitor_id, ...r }) => ({ ...r, visitor_id: idOf.get(Number(visitor_id)) ?? null, revenue: money(revenue) }) as Completion),
    pagination: { total: Number(count!.n), page: page.page, limit: page.limit },
  };
}
