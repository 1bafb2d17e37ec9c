// Distinct visitors and visits from the first-occurrence marks (storage/marks.ts): events and visits flagged
// as their visitor's (or visit's) first in the range, per page, per chart bucket or overall, so that summing
// the flags replaces count(DISTINCT …). Exact only for an unfiltered scope (a filter can drop the earlier
// occurrence a mark points to) whose range starts after the site's stale marks, if any.
import type { Runner } from '../sql/dialect.ts';
import { MARK_OFFSET_MS } from '../../storage/mark-time.ts';
import { eventsSource, scopedTable, visitsSource, type Scope } from './scope.ts';
import { one } from '../run.ts';
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import { selectMetrics, type Metric } from '../sql/metrics.ts';

/** True when the marks answer `scope` exactly. */
export async function marksHold(db: Runner, scope: Scope): Promise<boolean> {
  if (scope.filters.length) return false;
  // Marks may also point at rows retention deleted (storage/retention.ts): ranges from before its floor count exactly.
  const stale = await one(db, sql`SELECT 1 AS stale FROM marks_stale WHERE site_id = ${scope.site.id} AND until >= ${scope.range.fromUtc}::TIMESTAMP
    UNION ALL SELECT 1 FROM retention_floors WHERE site_id = ${scope.site.id} AND floor > ${scope.range.fromUtc}::TIMESTAMP`);
  return !stale;
}

/** The visitors of the whole scope, summed over the marked events (first_in_scope: a visitor's first in range). */
export const SCOPE_VISITORS = frag('count_if(first_in_scope)');

/** The range start as a mark (storage/marks.ts: milliseconds since year 0). */
export const fromMark = (scope: Scope) => BigInt(Date.parse(scope.range.fromUtc) + MARK_OFFSET_MS);

/**
 * The scope's visitors (`visitors`) on `table`: where the marks hold (`marks`), a sum of the first events
 * (or visits) in range of each visitor, else counted distinct.
 */
export function scopeVisitors(scope: Scope, table: 'events' | 'visits', marks: boolean): Fragment {
  if (!marks) return sql`SELECT count(DISTINCT visitor_id) AS visitors FROM ${scopedTable(scope, table)}`;
  return sql`SELECT ${SCOPE_VISITORS} AS visitors FROM ${table === 'events' ? markedEvents(scope) : markedVisits(scope)}`;
}

/**
 * The scope's visits with first_in_scope set on each visitor's first visit starting in range. Every visit sits
 * in exactly one group of a visit attribute, so SCOPE_VISITORS summed over the groups is the scope's visitors.
 */
export function markedVisits(scope: Scope): Fragment {
  return sql`(SELECT *, visit_prev < ${fromMark(scope)} AS first_in_scope FROM ${visitsSource(scope)})`;
}

/**
 * `(b, visitors)` per chart bucket `b` of the scope's visits: a visit counts when its visitor's previous visit
 * began before the range, or in an earlier bucket (visit starts only grow, so that is the first in its bucket).
 * `also`: more visit metrics counted in the same pass (one read of the visits per chart, not two).
 * `bucketStart`: the same test as a comparison of the visit's mark with its bucket's start, where that is cheaper.
 */
export function visitorsPerBucket(scope: Scope, bucket: (column: string) => Fragment, also: readonly Metric[] = [], bucketStart?: BucketStart): Fragment {
  const more = also.length ? sql`, ${selectMetrics(also, 'first_visits')}` : frag('');
  // The previous visit began before the range or in an earlier bucket ⟺ before the visit's bucket began (or the range).
  const starts = bucketStart?.('start_ts', (ms) => sql`${BigInt(ms + MARK_OFFSET_MS)}::BIGINT`);
  if (starts) return sql`SELECT ${bucket('start_ts')} AS b, count_if(visit_prev < ${starts}) AS visitors${more} FROM ${markedVisits(scope)} GROUP BY ALL`;
  const src = sql`(SELECT *, make_timestamp((visit_prev - ${MARK_OFFSET_MS}::BIGINT) * 1000) AS prev_start FROM ${markedVisits(scope)})`;
  return sql`SELECT ${bucket('start_ts')} AS b, count_if(first_in_scope OR ${bucket('prev_start')} < ${bucket('start_ts')}) AS visitors${more}
    FROM ${src} GROUP BY ALL`;
}

/**
 * Where it is cheaper than bucketing each visit's previous start (month buckets: a CASE of a dozen arms, ~80 of a
 * 12-month chart's ~170 ms of CPU): per row of `column`, `value(t)` of the UTC instant t its bucket starts at, no
 * earlier than the range's start (sql/buckets.ts, monthStartSql); null elsewhere.
 */
export type BucketStart = (column: string, value: (utcMs: number) => Fragment) => Fragment | null;

/**
 * The scope's events with flags for the first event in range of each visitor on its page (first_visitor),
 * of each visit on its page (first_visit), and of each visitor at all (first_in_scope). Every event sits in
 * exactly one page group, so SCOPE_VISITORS summed over the page groups is the scope's visitors.
 */
export function markedEvents(scope: Scope): Fragment {
  const from = fromMark(scope);
  return sql`(SELECT *, abs(page_prev) < ${from} AS first_visitor, page_prev < ${from} AS first_visit, seen_prev < ${from} AS first_in_scope
    FROM ${eventsSource(scope)})`;
}
