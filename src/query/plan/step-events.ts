// A funnel's step events: every event of the scope's visits that matches a step, packed into one BIGINT,
// epoch_ms × 256 + step bitmask, so that numeric order is time order and a step test is a bit test.
// Filters pick the visits; every event of theirs in range takes part, so every step can match.
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import { matchSum, type MatchDef } from '../sql/goals-match.ts';
import { DUCKDB, type Dialect } from '../sql/dialect.ts';

/** Up to 8 steps fit the low byte. */
export const MAX_STEPS = 8;

/**
 * `(visitor_id, grp, x)` of the step-matching events among `events` (the events of the scope's visits):
 * `grp` the visit or the visitor the steps are followed in, `x` the packed time and steps.
 */
export function stepEventsOf(events: Fragment, steps: MatchDef[], per: 'visit' | 'visitor', d: Dialect = DUCKDB): Fragment {
  if (steps.length > MAX_STEPS) throw new Error(`at most ${MAX_STEPS} funnel steps`);
  const mask = matchSum(steps, steps.map((_, k) => 1 << k), d);
  const group = frag(per === 'visit' ? 'visit_id' : 'visitor_id');
  return sql`(SELECT * FROM (SELECT visitor_id, ${group} AS grp, ${d.epochMillis(frag('ts'))} * 256 + ${mask} AS x FROM ${events} e) WHERE ${frag(d.bitAnd('x', '255'))} <> 0)`;
}
