// Chart intervals in the site's zone: the label of every bucket in a range (zero-filled by the caller)
// and the SQL expression putting a UTC timestamp in its local bucket.
import { badRequest } from '../http/errors.ts';
import { addDays, addMonths, daysBetween, monthStart, wallClock } from './calendar.ts';
import type { Range } from './period.ts';
import { frag, ident, sql, type Fragment } from './sql.ts';

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const MAX_BUCKETS = 1000;

/** Contract §8: hour for one day, month for 12mo and ranges over 180 days, else day. */
export function defaultInterval(r: Range): Interval {
  if (r.period === 'realtime' || r.from === r.to) return 'hour';
  if (r.period === '12mo' || daysBetween(r.from, r.to) + 1 > 180) return 'month';
  return 'day';
}

const FORMAT: Record<Interval, string> = { hour: '%Y-%m-%d %H:00:00', day: '%Y-%m-%d', week: '%Y-%m-%d', month: '%Y-%m-%d' };

/** Local bucket label of a UTC TIMESTAMP column: 'YYYY-MM-DD' (day; a week by its Monday; a month by its 1st) or 'YYYY-MM-DD HH:00:00'. */
export function bucketSql(interval: Interval, tz: string, column: string): Fragment {
  if (!INTERVALS.includes(interval)) throw new Error(`unknown interval ${interval}`);
  // The unit must be a literal for DuckDB; it comes from the INTERVALS allow-list, never from the request text.
  return sql`strftime(date_trunc('${frag(interval)}', timezone(${tz}, ${ident(column)}::TIMESTAMPTZ)), ${FORMAT[interval]})`;
}

/**
 * Every bucket label of the range, in order. Hours are walked as real instants, so a spring-forward day
 * has 23 buckets and the repeated hour of a fall-back day is one bucket.
 */
export function bucketLabels(r: Range, interval: Interval): string[] {
  const out: string[] = [];
  const push = (label: string) => {
    if (out[out.length - 1] === label) return;
    if (out.length >= MAX_BUCKETS) throw badRequest(`Invalid interval: '${interval}' gives more than ${MAX_BUCKETS} buckets for this range; choose a coarser interval`);
    out.push(label);
  };
  if (interval === 'hour') {
    const end = Date.parse(r.toUtc);
    const label = (t: number) => {
      const w = wallClock(t, r.timezone);
      return `${w.date} ${w.hour}:00:00`;
    };
    // Start at the range's own first instant (local midnight is not a whole UTC hour in every zone);
    // the last instant closes a range that does not end on an hour (realtime).
    for (let t = Date.parse(r.fromUtc); t < end; t += 3_600_000) push(label(t));
    push(label(end - 1));
    return out;
  }
  if (interval === 'day') {
    for (let d = r.from; d <= r.to; d = addDays(d, 1)) push(d);
    return out;
  }
  if (interval === 'week') {
    const dow = new Date(`${r.from}T00:00:00Z`).getUTCDay();
    for (let d = addDays(r.from, -((dow + 6) % 7)); d <= r.to; d = addDays(d, 7)) push(d);
    return out;
  }
  for (let d = monthStart(r.from); d <= r.to; d = addMonths(d, 1)) push(d);
  return out;
}
