// Typed filters → WHERE fragments. Values and property keys are always bound parameters.
import { and, ident, oneOf, or, sql, type Fragment } from '../../storage/sql.ts';
import type { Filter } from '../parse/filter-types.ts';
import { anyGoalCondition } from './goals-match.ts';
import { DUCKDB, type Dialect } from './dialect.ts';

/** The label a client sees for a missing value also selects it: `is "(none)"` matches NULL. */
const NONE_LABELS = new Set(['(none)', 'Direct / None']);

function subject(f: Filter, d: Dialect): Fragment {
  const t = f.target;
  if (t.kind === 'prop') return d.prop(t.key);
  if (t.kind === 'column') return ident(t.column);
  throw new Error('goal filters have no single column');
}

/** The positive test (is / contains / matches); negative operators wrap it in NOT coalesce(…, false). */
function positive(f: Filter, d: Dialect): Fragment {
  // One definition of goal completion for filters, goal stats and funnels (goals-match.ts).
  if (f.target.kind === 'goal') return anyGoalCondition(f.target.goals, d);
  const col = subject(f, d);
  switch (f.operator) {
    case 'is':
    case 'is_not': {
      const values = f.values.filter((v) => !NONE_LABELS.has(v));
      return oneOf(col, values, values.length < f.values.length, d.inList);
    }
    case 'contains':
    case 'not_contains':
      return or(f.values.map((v) => d.contains(col, v)));
    case 'matches':
    case 'not_matches':
      return or(f.values.map((v) => d.matches(col, v)));
  }
}

/**
 * Whether only an event carrying the property can pass: a positive test without "(none)", or `is_not` with it.
 * Such a test is put after the carrying test (dialect.hasProps), which skips most events before reading the map.
 */
export function needsProp(f: Filter): boolean {
  const none = f.values.some((v) => NONE_LABELS.has(v));
  if (f.operator === 'is') return !none;
  if (f.operator === 'is_not') return none;
  return f.operator === 'contains' || f.operator === 'matches';
}

export function condition(f: Filter, d: Dialect = DUCKDB): Fragment {
  const p = positive(f, d);
  const test = f.operator === 'is' || f.operator === 'contains' || f.operator === 'matches' ? p : sql`NOT coalesce(${p}, false)`;
  return f.target.kind === 'prop' && needsProp(f) ? sql`(${d.hasProps()} AND ${test})` : test;
}

/** Filters tested on the visits table (visit attributes) vs on events (page, event name, props, goal). */
export function isVisitLevel(f: Filter): boolean {
  return f.target.kind === 'column' && f.target.level === 'visit';
}

export const conditions = (filters: Filter[], d: Dialect = DUCKDB): Fragment => and(filters.map((f) => condition(f, d)));
