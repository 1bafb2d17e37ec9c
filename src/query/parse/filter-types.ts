// The parsed filters' types, shared by the `filters` parameter (filters.ts) and the query API's filter trees
// (filter-tree.ts): a leaf of a tree is a Filter, and a Filter may hold a tree.
import type { MatchDef } from '../sql/goals-match.ts';
import type { Level } from './dimensions.ts';
import type { Operator } from './operators.ts';

/** What a filter tests: a registered column, a custom property, or goal completion. */
export type Target =
  | { kind: 'column'; level: Level; column: string; onEveryEvent: boolean }
  | { kind: 'prop'; key: string }
  | { kind: 'goal'; goals: MatchDef[] }
  /** A nested filter of the query API (and / or / not / has_done), compiled per table by sql/filter-tree-sql.ts. */
  | { kind: 'tree'; node: FilterNode };

export type Filter = { dimension: string; operator: Operator; values: string[]; target: Target };

export type FilterNode =
  | { op: 'leaf'; filter: Filter; path: string }
  | { op: 'and' | 'or'; children: FilterNode[] }
  | { op: 'not'; child: FilterNode }
  | { op: 'has_done' | 'has_not_done'; child: FilterNode };
