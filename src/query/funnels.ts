// Funnel analysis as ONE set-based query. Each step-matching event is packed into one BIGINT,
// epoch_ms × 256 + step bitmask, so that numeric order is time order; each visit (or visitor, for time
// windows) collects its packed events in a list, and list lambdas pick, step by step, the earliest event
// of step k strictly after the one chosen for step k−1 (so steps done out of order do not count).
import type { Database } from '../storage/database.ts';
import { tableSource } from '../storage/sources.ts';
import type { FunnelWindow } from '../funnels/model.ts';
import { matchSum, type MatchDef } from './goals-match.ts';
import { visitsSource, type Scope } from './scope.ts';
import { one } from './run.ts';
import { frag, sql } from './sql.ts';

/** Milliseconds allowed from the first step, per window; session windows group by visit instead. */
const WINDOW_MS: Record<Exclude<FunnelWindow, 'session'>, number> = { '1h': 3_600_000, '1d': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

export type StepCounts = { visitors: number[]; medianSeconds: (number | null)[] };

/**
 * Per step: visitors who did steps 1..k in this order (within the visit, or within the window from their
 * first step-1 event in range), and the median seconds from step k−1 to step k among them. A visitor with
 * several visits counts once, at their deepest visit. Step pickers run in stacked CTEs: a lambda that
 * captured an alias from the same SELECT would re-evaluate the earlier picker per list element.
 */
export async function funnelCounts(db: Database, scope: Scope, steps: MatchDef[], window: FunnelWindow): Promise<StepCounts> {
  const mask = matchSum(steps, steps.map((_, k) => 1 << k));
  // Filters decide which visits take part; their events are then read unfiltered so every step can match.
  const events = scope.filters.length
    ? sql`(SELECT * FROM ${tableSource(scope.files, 'events', scope.site.id, scope.range)} WHERE visit_id IN (SELECT visit_id FROM ${visitsSource(scope)}))`
    : tableSource(scope.files, 'events', scope.site.id, scope.range);
  const group = frag(window === 'session' ? 'visit_id' : 'visitor_id');
  const within = window === 'session' ? '' : ` AND (x >> 8) <= (s1 >> 8) + ${WINDOW_MS[window]}`;
  // Step 1 is a plain aggregate; later steps need the list and the previous step's pick.
  const pickers = steps.slice(1).map((_, j) => {
    const k = j + 1;
    return `p${k + 1} AS (SELECT *, list_min(list_filter(l, x -> (x & ${1 << k}) <> 0 AND x > s${k}${within})) AS s${k + 1} FROM p${k})`;
  });
  const last = `p${steps.length}`;
  const level = steps.map((_, k) => `(s${k + 1} IS NOT NULL)::INTEGER`).join(' + ');
  // Seconds are medians of integer gaps (d2…dn, ms); lists of step times would be copied per row.
  const gaps = steps.slice(1).map((_, j) => `(s${j + 2} >> 8) - (s${j + 1} >> 8) AS d${j + 2}`);
  const outs = steps.flatMap((_, k) => [
    `count(*) FILTER (WHERE level >= ${k + 1}) AS v${k + 1}`,
    k === 0 ? `NULL AS m1` : `median(d${k + 1}) FILTER (WHERE level >= ${k + 1}) / 1000.0 AS m${k + 1}`,
  ]);
  // A visitor with several visits counts once, at their deepest one (the earliest of equally deep ones,
  // so every gap comes from the same visit); time windows already group by visitor.
  const levels = frag(`SELECT visitor_id, ${level} AS level, s1 >> 8 AS t1, ${gaps.join(', ')} FROM ${last}`);
  const deepest = '(level::BIGINT << 42) - t1';
  const best = window === 'session'
    ? sql`SELECT visitor_id, max(level) AS level, ${frag(steps.slice(1).map((_, j) => `arg_max(d${j + 2}, ${deepest}) AS d${j + 2}`).join(', '))} FROM (${levels}) GROUP BY visitor_id`
    : levels;
  // Only groups that reached step 1 matter; grouping on one key (the visit, or the visitor) keeps the hash small.
  const q = sql`WITH ev AS (
      SELECT visitor_id, ${group} AS grp, epoch_ms(ts) * 256 + ${mask} AS x FROM ${events} e
    ), p1 AS (
      SELECT grp, any_value(visitor_id) AS visitor_id, list(x) AS l, min(x) FILTER (WHERE (x & 1) <> 0) AS s1
      FROM ev WHERE (x & 255) <> 0 GROUP BY grp HAVING s1 IS NOT NULL
    )${frag(pickers.map((p) => `, ${p}`).join(''))}, best AS (${best})
    SELECT ${frag(outs.join(', '))} FROM best`;
  const row = await one(db, q);
  return {
    visitors: steps.map((_, k) => row?.[`v${k + 1}`] ?? 0),
    medianSeconds: steps.map((_, k) => (row?.[`m${k + 1}`] == null ? null : Math.round(row[`m${k + 1}`]))),
  };
}
