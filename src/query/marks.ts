// Distinct visitors and visits from the first-occurrence marks (storage/marks.ts): the scope's events with
// two flags relative to the range start, so that counting them replaces count(DISTINCT …). Exact only for
// an unfiltered scope (a filter can drop the earlier occurrence a mark points to) whose range starts after
// the site's stale marks, if any.
import type { Database } from '../storage/database.ts';
import { eventsSource, type Scope } from './scope.ts';
import { one } from './run.ts';
import { sql, type Fragment } from './sql.ts';

/** True when the marks answer `scope` exactly. */
export async function marksHold(db: Database, scope: Scope): Promise<boolean> {
  if (scope.filters.length) return false;
  const stale = await one(db, sql`SELECT 1 AS stale FROM marks_stale WHERE site_id = ${scope.site.id} AND until >= ${scope.range.fromUtc}::TIMESTAMP`);
  return !stale;
}

/**
 * The scope's events with `first_visitor` (and, per page, `first_visit`) set on the first event in range
 * of each visitor (visit) in the group: `page` for groups by path, `site` for the scope as a whole.
 */
export function markedEvents(scope: Scope, per: 'page' | 'site'): Fragment {
  const from = scope.range.fromUtc;
  const flags = per === 'page'
    ? sql`prev_page_ts IS NULL OR prev_page_ts < ${from}::TIMESTAMP AS first_visitor, page_visit_first OR prev_page_ts < ${from}::TIMESTAMP AS first_visit`
    : sql`prev_seen_ts IS NULL OR prev_seen_ts < ${from}::TIMESTAMP AS first_visitor`;
  return sql`(SELECT *, ${flags} FROM ${eventsSource(scope)})`;
}
