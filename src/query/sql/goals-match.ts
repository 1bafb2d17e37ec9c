// SQL conditions deciding whether a stored event completes a goal or a funnel step; values always bound.
import { pathTest } from './path-pattern.ts';
import { frag, join, or, sql, type Fragment } from '../../storage/sql.ts';

export type MatchDef = { type: 'pageview'; path: string } | { type: 'event'; event_name: string };

/** The cheapest exact SQL test of the path column for a goal's glob (see path-pattern.ts). */
function pathCondition(glob: string): Fragment {
  const t = pathTest(glob);
  if (t.kind === 'equals') return sql`path = ${t.value}`;
  if (t.kind === 'like') return sql`path LIKE ${t.pattern} ESCAPE '\\'`;
  if (t.kind === 'like_depth') return sql`path LIKE ${t.pattern} ESCAPE '\\' AND length(path) - length(replace(path, '/', '')) = ${t.slashes}`;
  return sql`regexp_full_match(path, ${t.pattern})`;
}

/**
 * Over the events columns event_type, path, event_name of the one relation in the FROM clause.
 * An event goal matches the event name, or the event type for events sent without a name
 * (so a goal named "purchase" counts purchase events).
 */
export function matchCondition(def: MatchDef): Fragment {
  if (def.type === 'pageview') return sql`(event_type = 'pageview' AND coalesce(${pathCondition(def.path)}, false))`;
  return sql`(coalesce(event_name, event_type) = ${def.event_name})`;
}

/** A goal row (type + path or event_name) as a match definition. */
export function goalMatch(goal: { type: string; path?: string | null; event_name?: string | null }): MatchDef {
  return goal.type === 'pageview' ? { type: 'pageview', path: goal.path ?? '' } : { type: 'event', event_name: goal.event_name ?? '' };
}

/** True when the event completes any of the goals; FALSE when there are none. */
export const anyGoalCondition = (goals: MatchDef[]): Fragment => sql`(${or(goals.map(matchCondition))})`;

/**
 * The sum of `weights[i]` over the definitions the event matches (a bitmask when the weights are powers
 * of two). Path tests run only on pageviews, inside one CASE, and each test is a CASE rather than a
 * boolean cast: over 10M events that evaluates a third faster than the sum of matchCondition()s.
 */
export function matchSum(defs: MatchDef[], weights: number[]): Fragment {
  const term = (cond: Fragment, i: number) => sql`CASE WHEN ${cond} THEN ${frag(String(weights[i]))} ELSE 0 END`;
  const pages = defs.flatMap((d, i) => (d.type === 'pageview' ? [term(pathCondition(d.path), i)] : []));
  const events = defs.flatMap((d, i) => (d.type === 'event' ? [term(matchCondition(d), i)] : []));
  const parts = [...(pages.length ? [sql`CASE WHEN event_type = 'pageview' THEN ${join(pages, ' + ')} ELSE 0 END`] : []), ...events];
  return parts.length ? sql`(${join(parts, ' + ')})` : frag('0');
}
