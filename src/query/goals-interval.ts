// Chart buckets for goal points: interval choice per contract §8 and every bucket of a range, in the site zone.
import { addDays, addMonths, daysBetween, monthStart } from './calendar.ts';
import type { Range } from './period.ts';

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** hour for one day, month for 12mo and ranges over 180 days, else day. */
export function defaultInterval(r: Range): Interval {
  if (r.from === r.to) return 'hour';
  if (r.period === '12mo' || daysBetween(r.from, r.to) + 1 > 180) return 'month';
  return 'day';
}

/** strftime format of a bucket label, applied to the local (site zone) bucket start. */
export const BUCKET_FORMAT: Record<Interval, string> = { hour: '%Y-%m-%d %H:00', day: '%Y-%m-%d', week: '%Y-%m-%d', month: '%Y-%m-%d' };

/** Every bucket label from r.from to r.to (weeks start on Monday, like DuckDB's date_trunc). */
export function bucketLabels(r: Range, interval: Interval): string[] {
  const out: string[] = [];
  if (interval === 'hour') {
    for (let d = r.from; d <= r.to; d = addDays(d, 1)) for (let h = 0; h < 24; h++) out.push(`${d} ${String(h).padStart(2, '0')}:00`);
  } else if (interval === 'day') {
    for (let d = r.from; d <= r.to; d = addDays(d, 1)) out.push(d);
  } else if (interval === 'week') {
    const dow = (new Date(`${r.from}T00:00:00Z`).getUTCDay() + 6) % 7;
    for (let d = addDays(r.from, -dow); d <= r.to; d = addDays(d, 7)) out.push(d);
  } else {
    for (let d = monthStart(r.from); d <= r.to; d = addMonths(d, 1)) out.push(d);
  }
  return out;
}
