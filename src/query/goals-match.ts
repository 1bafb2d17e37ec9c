// SQL conditions deciding whether a stored event completes a goal or a funnel step; values always bound.
import type { Fragment } from '../storage/sources.ts';
import { pathTest } from '../goals/path-pattern.ts';

export type MatchDef = { type: 'pageview'; path: string } | { type: 'event'; event_name: string };

/**
 * Over the events columns event_type, path, event_name (optionally qualified by `alias.`).
 * An event goal matches the event name, or the event type for events sent without a name
 * (so a goal named "purchase" counts purchase events).
 */
export function matchCondition(def: MatchDef, alias = ''): Fragment {
  const col = (c: string) => (alias ? `${alias}.${c}` : c);
  if (def.type === 'pageview') {
    const path = col('path');
    const t = pathTest(def.path);
    const test =
      t.kind === 'equals' ? { sql: `${path} = ?`, params: [t.value] }
      : t.kind === 'like' ? { sql: `${path} LIKE ? ESCAPE '\\'`, params: [t.pattern] }
      : t.kind === 'like_depth' ? { sql: `${path} LIKE ? ESCAPE '\\' AND length(${path}) - length(replace(${path}, '/', '')) = ?`, params: [t.pattern, t.slashes] }
      : { sql: `regexp_full_match(${path}, ?)`, params: [t.pattern] };
    return { sql: `(${col('event_type')} = 'pageview' AND coalesce(${test.sql}, false))`, params: test.params };
  }
  return { sql: `(coalesce(${col('event_name')}, ${col('event_type')}) = ?)`, params: [def.event_name] };
}

/** A goal row (type + path or event_name) as a match definition. */
export function goalMatch(goal: { type: string; path?: string | null; event_name?: string | null }): MatchDef {
  return goal.type === 'pageview' ? { type: 'pageview', path: goal.path ?? '' } : { type: 'event', event_name: goal.event_name ?? '' };
}

/** True when the event completes any of the goals; FALSE when there are none. */
export function anyGoalCondition(goals: MatchDef[], alias = ''): Fragment {
  if (goals.length === 0) return { sql: 'FALSE', params: [] };
  const parts = goals.map((g) => matchCondition(g, alias));
  return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
}

/** How many of the goals the event completes (an event may complete several). */
export function goalCountExpr(goals: MatchDef[], alias = ''): Fragment {
  if (goals.length === 0) return { sql: '0', params: [] };
  const parts = goals.map((g) => matchCondition(g, alias));
  return { sql: `(${parts.map((p) => `${p.sql}::INTEGER`).join(' + ')})`, params: parts.flatMap((p) => p.params) };
}
