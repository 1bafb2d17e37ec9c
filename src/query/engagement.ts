// Time on page and scroll depth. The tracker reports them for the page being left, on the next pageview
// of the visit (spec §2.2: "seconds spent on the previous page"), so a report belongs to the path of the
// visit's preceding pageview.
import { tableSource } from '../storage/sources.ts';
import { eventsSource, type Scope } from './scope.ts';
import { selectMetrics } from './metrics.ts';
import { ident, sql, type Fragment } from './sql.ts';

/**
 * `(name, time_on_page, scroll_depth)` per value of `column` (path or hostname) among `names`.
 * Only visits that viewed one of the names in scope are windowed, so the cost follows the page shown.
 */
export function engagementByPage(scope: Scope, column: string, names: string[]): Fragment {
  const col = ident(column);
  const all = tableSource('events', scope.site.id, scope.range);
  const viewed = sql`SELECT visit_id FROM ${eventsSource(scope)} WHERE event_type = 'pageview' AND ${col} = ANY(${names}::VARCHAR[])`;
  return sql`SELECT name, ${selectMetrics(['time_on_page', 'scroll_depth'], 'events')} FROM (
      SELECT lag(${col}) OVER (PARTITION BY visit_id ORDER BY ts) AS name, time_on_page, scroll_depth
      FROM ${all} WHERE event_type = 'pageview' AND visit_id IN (${viewed})
    ) WHERE name = ANY(${names}::VARCHAR[]) AND (time_on_page IS NOT NULL OR scroll_depth IS NOT NULL)
    GROUP BY ALL`;
}
