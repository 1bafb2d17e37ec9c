// Funnel analysis as ONE set-based query over the planner's step events (plan/step-events.ts: each
// step-matching event of the scope's visits packed into one BIGINT, epoch_ms × 256 + step bitmask, so that
// numeric order is time order); then, step by step, each visit (or visitor, for time windows) picks the
// earliest event of step k strictly after the one chosen for step k−1 (so steps done out of order do not
// count), joining the step's events to the groups still in. Each step's count is the visitors metric
// (sql/metrics.ts) of the visitors who got that far.
// Not a query-API preset: /query counts rows that each stand alone, and has_done asks only whether a
// visitor did something; a funnel is an ordered sequence per visit or visitor, within a window, with the
// median gaps between steps. Its relation, filters and goal matching are still the engine's own.
import { dialectOf, type Runner } from '../sql/dialect.ts';
import type { MatchDef } from '../sql/goals-match.ts';
import { planFor, type Scope } from '../plan/planner.ts';
import { metricSql } from '../sql/metrics.ts';
import { one } from '../run.ts';
import { frag, sql } from '../../storage/sql.ts';

/** How long a visitor has to go through the steps: the visit, or a time from their first step. */
export const FUNNEL_WINDOWS = ['session', '1h', '1d', '7d', '30d'] as const;
export type FunnelWindow = (typeof FUNNEL_WINDOWS)[number];

/** Milliseconds allowed from the first step, per window; session windows group by visit instead. */
const WINDOW_MS: Record<Exclude<FunnelWindow, 'session'>, number> = { '1h': 3_600_000, '1d': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

export type StepCounts = { visitors: number[]; medianSeconds: (number | null)[] };

/**
 * Per step: visitors who did steps 1..k in this order (within the visit, or within the window from their
 * first step-1 event in range), and the median seconds from step k−1 to step k among them. A visitor with
 * several visits counts once, at their deepest visit.
 */
export async function funnelCounts(db: Runner, scope: Scope, steps: MatchDef[], window: FunnelWindow): Promise<StepCounts> {
  const d = dialectOf(scope);
  const ms = (x: string) => d.shiftRight(x, 8);
  // Filters decide which visits take part; their events are then read unfiltered so every step can match.
  const ev = planFor(db, scope).stepEvents(steps, window === 'session' ? 'visit' : 'visitor');
  const within = window === 'session' ? '' : ` AND ${ms('e.x')} <= ${ms('p.s1')} + ${WINDOW_MS[window]}`;
  // Step k: per group, the earliest step-k event strictly after the step k−1 pick — a join of the
  // step's events with the groups that reached step k−1, so each step reads only its own events.
  const pickers = steps.slice(1).map((_, j) => {
    const k = j + 1;
    return `p${k + 1} AS (SELECT grp, any_value(p.s1) AS s1, min(e.x) AS s${k + 1} FROM ev e JOIN p${k} p USING (grp)
      WHERE ${d.bitAnd('e.x', String(1 << k))} <> 0 AND e.x > p.s${k}${within} GROUP BY grp)`;
  });
  const level = steps.map((_, k) => `(s${k + 1} IS NOT NULL)::INTEGER`).join(' + ');
  // Seconds are medians of integer gaps (d2…dn, ms).
  const gaps = steps.slice(1).map((_, j) => `${ms(`s${j + 2}`)} - ${ms(`s${j + 1}`)} AS d${j + 2}`);
  const outs = steps.flatMap((_, k) => [
    `${metricSql('visitors', 'events')} FILTER (WHERE level >= ${k + 1}) AS v${k + 1}`,
    k === 0 ? `NULL AS m1` : `${d.median(`d${k + 1}`)} FILTER (WHERE level >= ${k + 1}) / 1000.0 AS m${k + 1}`,
  ]);
  const joined = steps.slice(1).map((_, j) => `LEFT JOIN (SELECT grp, s${j + 2} FROM p${j + 2}) q${j + 2} USING (grp)`).join(' ');
  // A visitor with several visits counts once, at their deepest one (the earliest of equally deep ones,
  // so every gap comes from the same visit); time windows already group by visitor.
  const levels = frag(`SELECT visitor_id, ${level} AS level, ${ms('s1')} AS start_ms, ${gaps.join(', ')} FROM p1 ${joined}`);
  const deepest = `${d.shiftLeft('level::BIGINT', 42)} - start_ms`;
  const best = window === 'session'
    // The depth is a column of its own: ClickHouse would read `level` inside the aggregate as max(level).
    ? sql`SELECT visitor_id, max(level) AS level, ${frag(steps.slice(1).map((_, j) => `${d.argMax(`d${j + 2}`, 'depth')} AS d${j + 2}`).join(', '))}
      FROM (SELECT *, ${frag(deepest)} AS depth FROM (${levels})) GROUP BY visitor_id`
    : levels;
  // The step-matching events, read once; only groups that reached step 1 go on.
  const q = sql`WITH ${frag(d.cteOnce('ev'))} (SELECT * FROM ${ev}), p1 AS (
      SELECT grp, any_value(visitor_id) AS visitor_id, min(x) AS s1 FROM ev WHERE ${frag(d.bitAnd('x', '1'))} <> 0 GROUP BY grp
    )${frag(pickers.map((p) => `, ${p}`).join(''))}, best AS (${best})
    SELECT ${frag(outs.join(', '))} FROM best`;
  const row = await one(db, q);
  return {
    visitors: steps.map((_, k) => row?.[`v${k + 1}`] ?? 0),
    medianSeconds: steps.map((_, k) => (row?.[`m${k + 1}`] == null ? null : Math.round(row[`m${k + 1}`]))),
  };
}
