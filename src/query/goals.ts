// Goal analytics: per-goal totals, one goal's totals and chart points, and its completions list.
// Each is one scan over the scope's events (eventsSource → tableSource); goal matching is in goals-match.ts.
import type { Database } from '../storage/database.ts';
import { tableSource } from '../storage/sources.ts';
import { goalMatch, matchCondition } from './goals-match.ts';
import { bucketLabels, type Interval } from './buckets.ts';
import { bucketLabelSql, localBucketSql } from './goals-local-time.ts';
import { eventsSource, type Scope } from './scope.ts';
import { join, sql, frag, type Fragment } from './sql.ts';
import { conversionRate, money } from './metrics.ts';

export type GoalDef = { id: string; name: string; type: string; path?: string | null; event_name?: string | null; value?: number | null };
export type Completion = { timestamp: string; visitor_id: string | null; page: string | null; event_name: string | null; revenue: number };
export type GoalMetrics = { visitors: number; completions: number; conversion_rate: number; revenue: number };

/** A completion is worth the event's own revenue plus the goal's value. */
const revenueOf = (eventRevenue: number, completions: number, value?: number | null) => money(eventRevenue + (value ?? 0) * completions);

/** completions, converting visitors and event revenue of one goal, as aggregate columns. */
const goalAggregates = (g: GoalDef, suffix = ''): Fragment => {
  const c = matchCondition(goalMatch(g));
  return sql`count(*) FILTER (WHERE ${c}) AS ${frag(`completions${suffix}`)},
    count(DISTINCT visitor_id) FILTER (WHERE ${c}) AS ${frag(`visitors${suffix}`)},
    coalesce(sum(revenue) FILTER (WHERE ${c}), 0)::DOUBLE AS ${frag(`revenue${suffix}`)}`;
};

const metricsOf = (r: Record<string, any> | undefined, g: GoalDef, suffix = ''): GoalMetrics => {
  const visitors = r?.[`visitors${suffix}`] ?? 0;
  const completions = r?.[`completions${suffix}`] ?? 0;
  return { visitors, completions, conversion_rate: conversionRate(visitors, r?.total ?? 0), revenue: revenueOf(r?.[`revenue${suffix}`] ?? 0, completions, g.value) };
};

/** Totals for every goal over the scope, in one scan; conversion rate is against all visitors in scope. */
export async function goalsStats(db: Database, scope: Scope, goals: GoalDef[]) {
  const cols = join([frag('count(DISTINCT visitor_id) AS total'), ...goals.map((g, i) => goalAggregates(g, `_${i}`))], ', ');
  const q = sql`SELECT ${cols} FROM ${eventsSource(scope)} e`;
  const [row] = await db.query(q.sql, q.params);
  return goals.map((g, i) => ({ id: g.id, name: g.name, ...metricsOf(row, g, `_${i}`) }));
}

/** One goal's totals and a point per interval bucket (every bucket present, empty ones zero). */
export async function goalDetail(db: Database, scope: Scope, goal: GoalDef, interval: Interval) {
  // Group on the local bucket start (cheap arithmetic), format only the grouped rows.
  const start = localBucketSql(interval, scope.range, frag('ts'));
  const q = sql`SELECT ${bucketLabelSql(interval, frag('b'))} AS bucket, grouping(b) AS is_total, count(DISTINCT visitor_id) AS total, ${goalAggregates(goal)}
    FROM (SELECT *, ${start} AS b FROM ${eventsSource(scope)} e)
    GROUP BY GROUPING SETS ((b), ())`;
  const rows = await db.query(q.sql, q.params);
  const byBucket = new Map(rows.filter((r) => !r.is_total).map((r) => [r.bucket, r]));
  return {
    metrics: metricsOf(rows.find((r) => r.is_total), goal),
    points: bucketLabels(scope.range, interval).map((date) => ({ date, ...metricsOf(byBucket.get(date), goal) })),
  };
}

/** Completions newest first, with the visitor's profile id; no scope means all time, unfiltered. */
export async function goalCompletions(db: Database, siteId: string, goal: GoalDef, page: { page: number; limit: number }, scope?: Scope) {
  const src = scope ? eventsSource(scope) : tableSource('events', siteId);
  const c = matchCondition(goalMatch(goal), 'e');
  // Top-N over the events first, then the profile lookup for that page only; the count is its own scan.
  const q = sql`SELECT p.ts AS timestamp, v.id::VARCHAR AS visitor_id, p.path AS page, p.event_name,
      (coalesce(p.revenue, 0) + ${goal.value ?? 0})::DOUBLE AS revenue
    FROM (SELECT e.ts, e.visitor_id, e.path, e.event_name, e.revenue FROM ${src} e WHERE ${c}
          ORDER BY e.ts DESC, e.visitor_id LIMIT ${page.limit} OFFSET ${(page.page - 1) * page.limit}) p
    LEFT JOIN visitors v ON v.site_id = ${siteId} AND v.visitor_id = p.visitor_id
    ORDER BY p.ts DESC, p.visitor_id`;
  const n = sql`SELECT count(*) AS n FROM ${src} e WHERE ${c}`;
  const [rows, [count]] = await Promise.all([db.query(q.sql, q.params), db.query(n.sql, n.params)]);
  return {
    completions: rows.map(({ revenue, ...r }) => ({ ...r, revenue: money(revenue) }) as Completion),
    pagination: { total: count!.n as number, page: page.page, limit: page.limit },
  };
}
