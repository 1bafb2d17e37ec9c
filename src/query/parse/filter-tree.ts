// The query API's filters: nested and / or / not over [operator, dimension, values] leaves, and has_done /
// has_not_done, checked part by part (a 400 names the path, e.g. filters[1][1]) into a tree of typed filters.
import { invalidQuery } from '../errors.ts';
import type { MatchDef } from '../sql/goals-match.ts';
import { goalMatch } from '../sql/goals-match.ts';
import type { Filter, FilterNode } from './filter-types.ts';
import { OPERATORS, type Operator } from './operators.ts';
import { queryDimension } from './query-dimensions.ts';

/** A goal of the site, as the query API names it (by name or id). */
export type SiteGoal = { id: string; name: string; type: string; path?: string | null; event_name?: string | null };

const MAX_LEAVES = 30;
const MAX_DEPTH = 6;
const MAX_VALUES = 100;
const MAX_VALUE = 2000;

/** Regular expressions run in DuckDB (RE2): `compiles` tells whether one does, so a bad one is a 400 naming it. */
export async function checkRegexes(n: FilterNode | null, compiles: (pattern: string) => Promise<string | null>): Promise<void> {
  if (!n) return;
  if (n.op === 'leaf') {
    if (n.filter.operator !== 'matches' && n.filter.operator !== 'not_matches') return;
    for (const [i, v] of n.filter.values.entries()) {
      const why = await compiles(v);
      if (why !== null) throw bad(`${n.path}[2][${i}]`, `invalid regular expression (${why})`);
    }
    return;
  }
  for (const c of children(n)) await checkRegexes(c, compiles);
}

function children(n: FilterNode): FilterNode[] {
  if (n.op === 'leaf') return [];
  return 'children' in n ? n.children : [n.child];
}

export const bad = (path: string, why: string) => invalidQuery(`${path}: ${why}`);

type Ctx = { goals: SiteGoal[]; leaves: number; inHasDone: boolean };

function leaf(raw: unknown[], path: string, ctx: Ctx): FilterNode {
  if (raw.length !== 3) throw bad(path, 'a filter is [operator, dimension, values]');
  const [operator, name, values] = raw;
  if (!(OPERATORS as readonly unknown[]).includes(operator)) {
    throw bad(`${path}[0]`, `unknown operator ${JSON.stringify(operator)?.slice(0, 60)} (expected one of ${OPERATORS.join(', ')}, and, or, not, has_done, has_not_done)`);
  }
  const d = queryDimension(name);
  if (typeof d === 'string') throw bad(`${path}[1]`, d);
  if (d.kind === 'time') throw bad(`${path}[1]`, `time dimensions cannot be filtered: use date_range`);
  if (d.kind === 'prop_key') throw bad(`${path}[1]`, `event:props lists property keys and cannot be filtered: filter by event:props:<key> (is_not "(none)" keeps the events that carry the key)`);
  if (ctx.inHasDone && d.kind === 'column' && d.dim.level === 'visit') throw bad(`${path}[1]`, `has_done tests events: use an event: dimension`);
  if (!Array.isArray(values) || values.length === 0) throw bad(`${path}[2]`, 'expected a non-empty list of values');
  if (values.length > MAX_VALUES) throw bad(`${path}[2]`, `at most ${MAX_VALUES} values`);
  values.forEach((v, i) => {
    if (typeof v !== 'string') throw bad(`${path}[2][${i}]`, 'expected a string');
    if (v.length > MAX_VALUE) throw bad(`${path}[2][${i}]`, `longer than ${MAX_VALUE} characters`);
  });
  if (++ctx.leaves > MAX_LEAVES) throw bad(path, `at most ${MAX_LEAVES} filters`);
  const op = operator as Operator;
  const vs = values as string[];
  if (d.kind === 'goal') {
    if (op !== 'is' && op !== 'is_not') throw bad(`${path}[0]`, 'event:goal supports only is and is_not');
    const goals: MatchDef[] = vs.map((v, i) => {
      const g = ctx.goals.find((x) => x.name === v || x.id === v.toLowerCase());
      if (!g) throw bad(`${path}[2][${i}]`, `unknown goal '${v.slice(0, 100)}'`);
      return goalMatch(g);
    });
    return { op: 'leaf', path, filter: { dimension: d.name, operator: op, values: vs, target: { kind: 'goal', goals } } };
  }
  const target = d.kind === 'prop'
    ? { kind: 'prop' as const, key: d.key }
    : { kind: 'column' as const, level: d.dim.level, column: d.dim.column, onEveryEvent: d.dim.onEveryEvent ?? false };
  return { op: 'leaf', path, filter: { dimension: d.name, operator: op, values: vs, target } };
}

function node(raw: unknown, path: string, ctx: Ctx, depth: number): FilterNode {
  if (depth > MAX_DEPTH) throw bad(path, `filters nest at most ${MAX_DEPTH} deep`);
  if (!Array.isArray(raw) || raw.length === 0) throw bad(path, 'expected a filter: [operator, dimension, values], ["and"|"or", [filters]], ["not", filter] or ["has_done", filter]');
  const head = raw[0];
  if (head === 'and' || head === 'or') {
    if (raw.length !== 2 || !Array.isArray(raw[1]) || raw[1].length === 0) throw bad(path, `expected ["${head}", [filter, …]]`);
    return { op: head, children: raw[1].map((c, i) => node(c, `${path}[1][${i}]`, ctx, depth + 1)) };
  }
  if (head === 'not' || head === 'has_done' || head === 'has_not_done') {
    if (raw.length !== 2) throw bad(path, `expected ["${head}", filter]`);
    if (head !== 'not' && ctx.inHasDone) throw bad(path, `${head} cannot nest in has_done`);
    const inner = head === 'not' ? ctx : { ...ctx, inHasDone: true };
    const child = node(raw[1], `${path}[1]`, inner, depth + 1);
    ctx.leaves = inner.leaves;
    return head === 'not' ? { op: 'not', child } : { op: head, child };
  }
  return leaf(raw, path, ctx);
}

/** `filters` of the body: one filter, or a list of them that must all hold. Null when there are none. */
export function parseFilterTree(raw: unknown, goals: SiteGoal[]): FilterNode | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) throw bad('filters', 'expected a list of filters or one filter');
  if (raw.length === 0) return null;
  const ctx: Ctx = { goals, leaves: 0, inHasDone: false };
  if (typeof raw[0] === 'string') return node(raw, 'filters', ctx, 0);
  return { op: 'and', children: raw.map((c, i) => node(c, `filters[${i}]`, ctx, 1)) };
}

/** Every leaf of the tree. */
export function leaves(n: FilterNode | null): Filter[] {
  if (!n) return [];
  if (n.op === 'leaf') return [n.filter];
  return children(n).flatMap(leaves);
}

/** The tree as the engine's flat list when it is one (an AND of plain leaves), else null. */
export function flatFilters(n: FilterNode | null): Filter[] | null {
  if (!n) return [];
  if (n.op === 'leaf') return [n.filter];
  if (n.op === 'and') {
    const parts = n.children.map(flatFilters);
    return parts.every((p) => p !== null) ? parts.flat() as Filter[] : null;
  }
  return null;
}

/** The tree without its top-level goal leaves (the denominator of a conversion rate). */
export function withoutGoals(n: FilterNode | null): FilterNode | null {
  if (!n) return null;
  if (n.op === 'leaf') return n.filter.target.kind === 'goal' ? null : n;
  if (n.op === 'and') {
    const children = n.children.map(withoutGoals).filter((c): c is FilterNode => c !== null);
    return children.length ? { op: 'and', children } : null;
  }
  return n;
}

/** The goals a top-level `is` goal leaf selects (conversions count them), or null. */
export function filteredGoals(n: FilterNode | null): MatchDef[] | null {
  if (!n) return null;
  if (n.op === 'leaf') return n.filter.target.kind === 'goal' && n.filter.operator === 'is' ? n.filter.target.goals : null;
  if (n.op === 'and') {
    const found = n.children.map(filteredGoals).filter((g): g is MatchDef[] => g !== null);
    return found.length ? found.flat() : null;
  }
  return null;
}
