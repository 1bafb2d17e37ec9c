// Local (site zone) chart buckets without per-row time zone lookups: the zone's UTC offsets over the range
// are found once in JS (a handful of DST segments) and applied as plain arithmetic in SQL, so 10M rows
// cost an add and a date_trunc instead of an ICU conversion each.
import { wallClock } from './calendar.ts';
import type { Range } from './period.ts';
import type { Interval } from './buckets.ts';
import { frag, join, sql, type Fragment } from './sql.ts';

const DAY = 86_400_000;

/** UTC offset of the zone at an instant, in ms (wall clock − UTC). */
function offsetAt(t: number, tz: string): number {
  const w = wallClock(t, tz);
  const wall = Date.UTC(+w.date.slice(0, 4), +w.date.slice(5, 7) - 1, +w.date.slice(8, 10), +w.hour, +w.minute, +w.second);
  return wall - Math.floor(t / 1000) * 1000;
}

/** [start instant, offset] segments covering [from, to): daily probes, then a binary search to the change. */
export function offsetSegments(fromMs: number, toMs: number, tz: string): [number, number][] {
  const segs: [number, number][] = [[fromMs, offsetAt(fromMs, tz)]];
  for (let t = fromMs; t < toMs; t += DAY) {
    const next = Math.min(t + DAY, toMs);
    const cur = segs[segs.length - 1]![1];
    if (offsetAt(next, tz) === cur) continue;
    let lo = t, hi = next; // offset(lo) = cur, offset(hi) ≠ cur
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (offsetAt(mid, tz) === cur) lo = mid; else hi = mid;
    }
    segs.push([hi, offsetAt(hi, tz)]);
  }
  return segs;
}

/** The local bucket start of a UTC TIMESTAMP column as a TIMESTAMP; `interval` comes from the INTERVALS allow-list. */
export function localBucketSql(interval: Interval, r: Range, column: Fragment): Fragment {
  const segs = offsetSegments(Date.parse(r.fromUtc), Date.parse(r.toUtc), r.timezone);
  const offset = segs.length === 1
    ? sql`${segs[0]![1]}::BIGINT`
    : sql`CASE ${join(segs.slice(1).map(([start], i) => sql`WHEN ${column} < ${new Date(start).toISOString()}::TIMESTAMP THEN ${segs[i]![1]}::BIGINT`), ' ')} ELSE ${segs[segs.length - 1]![1]}::BIGINT END`;
  return sql`date_trunc(${frag(`'${interval}'`)}, ${column} + to_milliseconds(${offset}))`;
}

/** Labels as src/query/buckets.ts writes them, applied to the few grouped bucket starts. */
export const bucketLabelSql = (interval: Interval, bucketStart: Fragment): Fragment =>
  sql`strftime(${bucketStart}, ${interval === 'hour' ? '%Y-%m-%d %H:00:00' : '%Y-%m-%d'})`;
