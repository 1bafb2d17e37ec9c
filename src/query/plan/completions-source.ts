// Goal completions: one row per event and goal it completes (goal_name: the goal's name as given), the
// relation the event:goal dimension groups and the goals report counts (sql/metrics.ts, table `completions`).
// Goal matching itself is sql/goals-match.ts, the one definition filters and funnels use too.
import { join, sql, type Fragment } from '../../storage/sql.ts';
import { anyGoalCondition, goalMatch, matchCondition } from '../sql/goals-match.ts';
import { DUCKDB, type Dialect } from '../sql/dialect.ts';

export type NamedGoal = { name: string; type: string; path?: string | null; event_name?: string | null };

/**
 * `events`' rows completing some of `goals`, each repeated per goal it completes. Rows completing none are
 * dropped before the goals are listed per row (a plain scan, not an unnest of every event).
 */
export function completionsOf(events: Fragment, goals: NamedGoal[], d: Dialect = DUCKDB): Fragment {
  if (!goals.length) return sql`(SELECT *, ${d.nullText()} AS goal_name FROM ${events} WHERE false)`;
  const names = join(goals.map((g) => sql`CASE WHEN ${matchCondition(goalMatch(g), d)} THEN ${g.name} END`), ', ');
  const any = anyGoalCondition(goals.map(goalMatch), d);
  return sql`(SELECT * FROM (SELECT *, ${d.explode(sql`[${names}]`)} AS goal_name FROM ${events} WHERE ${any}) WHERE goal_name IS NOT NULL)`;
}
