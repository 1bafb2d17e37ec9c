// Time on page and scroll depth. The tracker reports them for the page being left, on the next pageview
// of the visit (spec §2.2: "seconds spent on the previous page"); ingestion stores that page on the event
// (engaged_path / engaged_hostname), so a report is grouped by it without windowing the visit.
import { hotRows } from '../../storage/sources.ts';
import { readRows } from './read.ts';
import { dialectOf } from '../sql/dialect.ts';
import { eventsSource, type Scope } from './scope.ts';
import { selectMetrics } from '../sql/metrics.ts';
import { iso } from '../parse/calendar.ts';
import { frag, ident, join, sql, type Fragment } from '../../storage/sql.ts';

const DAY_MS = 86_400_000;

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
  // Grouping every engaged page and keeping the names afterwards is twice as fast as testing each row
  // against the names.
  const d = dialectOf(scope);
  const keep = names === 'all' ? frag('') : sql`HAVING ${d.inList(name, names)}`;
  if (!scope.filters.length && d.name === 'duckdb') {
    return sql`SELECT ${name} AS name, ${selectMetrics(['time_on_page', 'scroll_depth'], 'rollup')}
      FROM ${reportSums(scope)} WHERE ${name} IS NOT NULL GROUP BY ALL ${keep}`;
  }
  if (!scope.filters.length) {
    // Another engine has no rollup: the same averages over its events (sum / count of the reports).
    return sql`SELECT ${name} AS name, ${selectMetrics(['time_on_page', 'scroll_depth'], 'events')}
      FROM ${readRows(scope, 'events', scope.range)} WHERE ${name} IS NOT NULL GROUP BY ALL ${keep}`;
  }
  if (names === 'all') throw new Error('engagement of every page is only counted without filters');
  // Only pageviews store the engaged page, and avg() skips the missing reports.
  const visits = sql`SELECT visit_id FROM ${eventsSource(scope)} WHERE event_type = 'pageview' AND ${d.inList(ident(column), names)}`;
  return sql`SELECT ${name} AS name, ${selectMetrics(['time_on_page', 'scroll_depth'], 'events')}
    FROM ${readRows(scope, 'events', scope.range)} WHERE ${name} IS NOT NULL AND visit_id IN (${visits})
    GROUP BY ALL ${keep}`;
}

/**
 * The scope's reports as sums per engaged page (columns of file_engagement): stored per file and UTC day,
 * taken whole for the files inside the range and for the whole days of the files at its edges; only the
 * reports of the range's partial first and last UTC day are summed from the files (pages over 12 months
 * read ~26k stored rows instead of 5.4M reports), plus the reports among the hot events.
 */
function reportSums(scope: Scope): Fragment {
  const { inside, edges } = scope.files.split('events', scope.site.id, scope.range);
  const [from, to] = [Date.parse(scope.range.fromUtc), Date.parse(scope.range.toUtc)];
  // [first, last): the whole UTC days of the range, possibly none.
  const first = Math.ceil(from / DAY_MS) * DAY_MS;
  const last = Math.max(first, Math.floor(to / DAY_MS) * DAY_MS);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  // The table is in write order, so the range's days prune most of it. A file with a row on a whole day of the
  // range overlaps the range, so it is listed (inside or at an edge) and the whole days need no file test: testing
  // every row against the file list (a join DuckDB plans for every row) cost a quarter of this statement. The
  // partial first and last days take only the inside files' rows (the edge files' are summed from the files below).
  const stored = frag('SELECT engaged_path, engaged_hostname, top_sum, top_n, sd_sum, sd_n FROM file_engagement');
  const parts = [sql`${stored} WHERE site_id = ${scope.site.id} AND day >= ${day(first)}::DATE AND day < ${day(last)}::DATE`,
    sql`${stored} WHERE site_id = ${scope.site.id} AND day >= ${day(from)}::DATE AND day <= ${day(to)}::DATE
      AND (day < ${day(first)}::DATE OR day >= ${day(last)}::DATE) AND file = ANY(${inside}::VARCHAR[])`];
  // Events an import left in the hot table (storage/hot-events.ts) have no stored sums yet.
  parts.push(sql`SELECT engaged_path, engaged_hostname, coalesce(sum(time_on_page), 0), count(time_on_page), coalesce(sum(scroll_depth), 0), count(scroll_depth)
    FROM ${hotRows('events', scope.site.id, scope.range)} WHERE time_on_page IS NOT NULL OR scroll_depth IS NOT NULL GROUP BY ALL`);
  if (edges.length) {
    parts.push(sql`SELECT engaged_path, engaged_hostname, coalesce(sum(time_on_page), 0), count(time_on_page), coalesce(sum(scroll_depth), 0), count(scroll_depth)
      FROM read_parquet(${edges.map((f) => scope.files.abs(f))}::VARCHAR[])
      WHERE ts >= ${scope.range.fromUtc}::TIMESTAMP AND ts < ${scope.range.toUtc}::TIMESTAMP
        AND (ts < ${iso(first)}::TIMESTAMP OR ts >= ${iso(last)}::TIMESTAMP)
        AND (time_on_page IS NOT NULL OR scroll_depth IS NOT NULL) GROUP BY ALL`);
  }
  return sql`(${join(parts, ' UNION ALL ')})`;
}
