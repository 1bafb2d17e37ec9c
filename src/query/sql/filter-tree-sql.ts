// A nested filter (parse/filter-tree.ts) as a WHERE fragment over visits or over events. Each leaf is tested
// where it lives (contract §7): on the row itself when it is of the row's level (or a visit attribute every
// event carries), else through the visit or event it belongs to; has_done asks for the visitor.
import { sql, type Fragment } from '../../storage/sql.ts';
import type { FilterNode } from '../parse/filter-types.ts';
import { condition, isVisitLevel } from './filter-sql.ts';
import { DUCKDB, type Dialect } from './dialect.ts';

/** The unfiltered relations a leaf of the other level is looked up in (around the range: parse/scope.ts). */
export type Lookups = { visits: Fragment; events: Fragment; eventsInRange: Fragment };

export function treeCondition(n: FilterNode, on: 'visits' | 'events', at: Lookups, d: Dialect = DUCKDB): Fragment {
  switch (n.op) {
    case 'and':
    case 'or': {
      const parts = n.children.map((c) => sql`(${treeCondition(c, on, at, d)})`);
      return parts.reduce((a, b) => sql`${a} ${n.op === 'and' ? sql`AND` : sql`OR`} ${b}`);
    }
    case 'not':
      return sql`NOT coalesce((${treeCondition(n.child, on, at, d)}), false)`;
    case 'has_done':
    case 'has_not_done': {
      const did = sql`visitor_id IN (SELECT visitor_id FROM ${at.eventsInRange} WHERE ${treeCondition(n.child, 'events', at, d)})`;
      return n.op === 'has_done' ? did : sql`NOT coalesce(${did}, false)`;
    }
    case 'leaf': {
      const f = n.filter;
      const visitLevel = isVisitLevel(f);
      const direct = on === 'visits' ? visitLevel : !visitLevel || (f.target.kind === 'column' && f.target.onEveryEvent);
      // A bare comparison: DuckDB pushes it into the Parquet scan (row-group statistics, dictionaries), which a
      // coalesce() around it prevents. A missing value (NULL) still fails the filter: under and / or it
      // decides nothing a false would not, and every not above it coalesces its whole child.
      if (direct) return condition(f, d);
      return on === 'visits'
        ? sql`visit_id IN (SELECT visit_id FROM ${at.events} WHERE ${condition(f, d)})`
        : sql`visit_id IN (SELECT visit_id FROM ${at.visits} WHERE ${condition(f, d)})`;
    }
  }
}
