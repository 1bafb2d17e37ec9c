// Funnel analysis as ONE set-based query: each visit (or visitor, for time windows) becomes an ordered list
// of step-matching events; lambdas pick, step by step, the first match after the previous step's match.
import type { Database } from '../storage/database.ts';
import { tableSource } from '../storage/sources.ts';
import type { MatchDef } from './goals-match.ts';
import { matchCondition } from './goals-match.ts';
import { visitsSource, type Scope } from './scope.ts';
import { frag, join, sql, type Fragment } from './sql.ts';

export type FunnelWindow = 'session' | '1h' | '1d' | '7d' | '30d';

/** Milliseconds allowed from the first step, per window; session windows group by visit instead. */
const WINDOW_MS: Record<Exclude<FunnelWindow, 'session'>, number> = { '1h': 3_600_000, '1d': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

export type StepCounts = { visitors: number[]; medianSeconds: (number | null)[] };

/**
 * Per step: visitors who did steps 1..k in this order (step k strictly after step k−1's event, within the
 * visit or within the window from the first step-1 event in range), and the median seconds from step k−1
 * to step k among them. A visitor with several visits is counted once, at their deepest visit.
 */
export async function funnelCounts(db: Database, scope: Scope, steps: MatchDef[], window: FunnelWindow): Promise<StepCounts> {
  const conds = steps.map((s) => matchCondition(s, 'e'));
  const mask = join(conds.map((c, k) => sql`coalesce(${c}, false)::INTEGER * ${frag(String(1 << k))}`), ' + ');
  const any = join(conds.map((c) => sql`coalesce(${c}, false)`), ' OR ');
  // Filters decide which visits take part; their events are then read unfiltered so every step can match.
  const events = scope.filters.length
    ? sql`(SELECT * FROM ${tableSource('events', scope.site.id, scope.range)} WHERE visit_id IN (SELECT visit_id FROM ${visitsSource(scope)}))`
    : tableSource('events', scope.site.id, scope.range);
  const group = frag(window === 'session' ? 'visit_id' : 'visitor_id');
  const within = window === 'session' ? frag('') : sql` AND x.t <= struct_extract(s1, 't') + ${WINDOW_MS[window]}`;
  const picks = steps.map((_, k) =>
    k === 0
      ? frag(`list_filter(l, x -> (x.m & 1) <> 0)[1] AS s1`)
      : sql`list_filter(l, x -> (x.m & ${frag(String(1 << k))}) <> 0 AND x.i > struct_extract(${frag(`s${k}`)}, 'i')${within})[1] AS ${frag(`s${k + 1}`)}`,
  );
  const level = steps.map((_, k) => `(s${k + 1} IS NOT NULL)::INTEGER`).join(' + ');
  const times = `[${steps.map((_, k) => `struct_extract(s${k + 1}, 't')`).join(', ')}]`;
  const outs = steps.flatMap((_, k) => [
    `count(*) FILTER (WHERE level >= ${k + 1}) AS v${k + 1}`,
    k === 0 ? `NULL AS m1` : `median(ts[${k + 1}] - ts[${k}]) FILTER (WHERE level >= ${k + 1}) / 1000.0 AS m${k + 1}`,
  ]);
  const q = sql`WITH ev AS (
      SELECT visitor_id, ${group} AS grp, epoch_ms(ts) AS t, ${mask} AS m FROM ${events} e WHERE ${any}
    ), seq AS (
      SELECT visitor_id, grp, list(struct_pack(t := t, m := m, i := i) ORDER BY i) AS l
      FROM (SELECT *, row_number() OVER (PARTITION BY grp ORDER BY t, m) AS i FROM ev)
      GROUP BY visitor_id, grp
    ), prog AS (
      SELECT visitor_id, ${join(picks, ', ')} FROM seq
    ), best AS (
      SELECT visitor_id, max(level) AS level, arg_max(ts, level) AS ts
      FROM (SELECT visitor_id, ${frag(level)} AS level, ${frag(times)} AS ts FROM prog)
      WHERE level > 0 GROUP BY visitor_id
    )
    SELECT ${frag(outs.join(', '))} FROM best`;
  const [row] = await db.query(q.sql, q.params);
  return {
    visitors: steps.map((_, k) => row?.[`v${k + 1}`] ?? 0),
    medianSeconds: steps.map((_, k) => (row?.[`m${k + 1}`] == null ? null : Math.round(row[`m${k + 1}`]))),
  };
}
