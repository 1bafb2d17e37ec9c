// Time on page and scroll depth. The tracker reports them for the page being left, on the next pageview
// of the visit (spec §2.2: "seconds spent on the previous page"); ingestion stores that page on the event
// (engaged_path / engaged_hostname), so a report is grouped by it without windowing the visit.
import { tableSource } from '../storage/sources.ts';
import { eventsSource, type Scope } from './scope.ts';
import { selectMetrics } from './metrics.ts';
import { frag, ident, sql, type Fragment } from './sql.ts';

/** The stored page a report is about, per page column it can be broken down by. */
const ENGAGED: Record<string, string> = { path: 'engaged_path', hostname: 'engaged_hostname' };

/**
 * `(name, time_on_page, scroll_depth)` per value of `column` (path or hostname) among `names`, or of every value
 * (`'all'`, unfiltered scopes only).
 * Reports count in the range they arrive in. With filters, they come from the visits that viewed one of
 * the names in scope: a filter on the page (or event) selects visits, not the report events themselves,
 * since a page's report arrives on the pageview after it.
 */
export function engagementByPage(scope: Scope, column: string, names: string[] | 'all'): Fragment {
  const stored = ENGAGED[column];
  if (!stored) throw new Error(`no engagement is stored for ${column}`);
  const name = ident(stored);
  // Only pageviews store the engaged page, and avg() skips the missing reports. Grouping every engaged
  // page and keeping the names afterwards is twice as fast as testing each row against the names.
  let where = sql`${name} IS NOT NULL`;
  if (scope.filters.length) {
    if (names === 'all') throw new Error('engagement of every page is only counted without filters');
    const col = ident(column);
    where = sql`${where} AND visit_id IN (SELECT visit_id FROM ${eventsSource(scope)} WHERE event_type = 'pageview' AND ${col} = ANY(${names}::VARCHAR[]))`;
  }
  return sql`SELECT ${name} AS name, ${selectMetrics(['time_on_page', 'scroll_depth'], 'events')}
    FROM ${tableSource(scope.files, 'events', scope.site.id, scope.range)} WHERE ${where} GROUP BY ALL
    ${names === 'all' ? frag('') : sql`HAVING ${name} = ANY(${names}::VARCHAR[])`}`;
}
