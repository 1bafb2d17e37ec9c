// Visitors per source or channel from the previous-visit marks per value (storage/value-marks.ts): a visit in range
// is its visitor's first with its value in the range exactly when its mark (the start of the visitor's previous
// visit with that value) is before the range, so a value's visitors are a sum of those visits in the pass that
// counts its other metrics, instead of grouping every visit by visitor (query/reports/visitor-masks.ts).
// Exact under the first-occurrence marks' own condition (marksHold: unfiltered — a filter can drop the earlier
// visit a mark points to, e.g. a visitor's two Google visits of which only the second is from the US —, the range
// after the site's stale point and retention floor) and once the site's marks are filled (not pending after
// migration 0016: older files read them as NULL).
import { markColumn, type ValueColumn } from '../../storage/value-marks.ts';
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import type { Runner } from '../sql/dialect.ts';
import { one } from '../run.ts';
import { fromMark } from './marked-sources.ts';
import { visitsSource, type Scope } from './scope.ts';

/** True when the site's marks per value are filled (the caller checks marksHold as well). */
export async function valueMarksFilled(db: Runner, scope: Scope): Promise<boolean> {
  return !(await one(db, sql`SELECT 1 AS pending FROM value_marks_pending WHERE site_id = ${scope.site.id}`));
}

/**
 * The scope's visits as markedVisits (first_in_scope: the visitor's first visit in range), each with first_of_value:
 * its visitor's first visit in range with its value of `column` (metric table `value_visits`).
 */
export function valueMarkedVisits(scope: Scope, column: ValueColumn): Fragment {
  const from = fromMark(scope);
  return sql`(SELECT *, visit_prev < ${from} AS first_in_scope, ${frag(markColumn(column))} < ${from} AS first_of_value FROM ${visitsSource(scope)})`;
}
