// Chart intervals in the site's zone: the label of every bucket in a range (zero-filled by the caller)
// and the SQL expression putting a UTC timestamp in its local bucket.
import { invalidQuery } from '../errors.ts';
import { addDays, addMonths, daysBetween, iso, monthStart, offsetChanges, startOfDayUtc } from '../parse/calendar.ts';
import type { Range } from '../parse/period.ts';
import { frag, ident, join, sql, type Fragment } from '../../storage/sql.ts';
import { DUCKDB, type Dialect } from './dialect.ts';

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

const US_PER_HOUR = 3_600_000_000;
const US_PER_DAY = 86_400_000_000;
/** Month buckets pick their start from a CASE over the month boundaries up to this many; longer ranges truncate. */
const MONTH_ARMS = 36;

/**
 * A UTC TIMESTAMP column as local wall-clock time, in integer microseconds since the local epoch. The
 * offsets of the range are worked out once in JS and applied as plain integer arithmetic: converting
 * every row with ICU's timezone() costs ~5× more, and date_trunc on timestamps twice the integer division.
 */
function localMicrosSql(column: string, r: Range, d: Dialect): Fragment {
  const col = ident(column);
  const epoch = d.epochMicros(col);
  const changes = offsetChanges(Date.parse(r.fromUtc), Date.parse(r.toUtc), r.timezone);
  const us = (ms: number) => Math.round(ms / 1000) * 1_000_000;
  if (changes.length === 1) return sql`(${epoch} + ${us(changes[0]!.offset)}::BIGINT)`;
  const whens = changes.slice(1).map((c, i) => sql`WHEN ${col} < ${d.timestamp(iso(c.at))} THEN ${us(changes[i]!.offset)}::BIGINT`);
  return sql`(${epoch} + CASE ${join(whens, ' ')} ELSE ${us(changes[changes.length - 1]!.offset)}::BIGINT END)`;
}

/** Local month starts: each boundary's UTC instant is where the CASE moves on to the next bucket. */
function monthSql(column: string, r: Range, d: Dialect): Fragment {
  const col = ident(column);
  const starts = bucketLabels(r, 'month');
  const local = (d: string) => Date.parse(`${d}T00:00:00Z`) * 1000;
  if (starts.length > MONTH_ARMS) return d.monthStartMicros(localMicrosSql(column, r, d));
  const whens = starts.slice(1).map((day, i) => sql`WHEN ${col} < ${d.timestamp(iso(startOfDayUtc(day, r.timezone)))} THEN ${local(starts[i]!)}::BIGINT`);
  return whens.length ? sql`CASE ${join(whens, ' ')} ELSE ${local(starts[starts.length - 1]!)}::BIGINT END` : sql`${local(starts[0]!)}::BIGINT`;
}

/**
 * For month buckets: a CASE over `column` giving `value(t)` of the UTC instant `t` (ms) its bucket starts at, or the
 * range's start where that is later (the first bucket of a range starting mid-month). Null for the other intervals,
 * whose bucket arithmetic is cheap as it is, and past MONTH_ARMS months.
 */
export function monthStartSql(r: Range, column: string, value: (utcMs: number) => Fragment, d: Dialect = DUCKDB): Fragment | null {
  const starts = bucketLabels(r, 'month');
  if (starts.length > MONTH_ARMS) return null;
  const col = ident(column);
  const from = Date.parse(r.fromUtc);
  const at = starts.map((day) => Math.max(startOfDayUtc(day, r.timezone), from));
  const whens = starts.slice(1).map((day, i) => sql`WHEN ${col} < ${d.timestamp(iso(startOfDayUtc(day, r.timezone)))} THEN ${value(at[i]!)}`);
  return whens.length ? sql`CASE ${join(whens, ' ')} ELSE ${value(at[at.length - 1]!)} END` : value(at[0]!);
}

/**
 * The local bucket start of a UTC TIMESTAMP column, as BIGINT microseconds of local wall-clock time
 * (grouping on integers; format once per group with bucketLabelSql). Weeks start on Monday: day 0,
 * 1970-01-01, was a Thursday.
 */
export function bucketSql(interval: Interval, r: Range, column: string, d: Dialect = DUCKDB): Fragment {
  if (interval === 'month') return monthSql(column, r, d);
  const local = localMicrosSql(column, r, d);
  if (interval === 'hour') return sql`(${d.intDiv(local, frag(String(US_PER_HOUR)))} * ${frag(String(US_PER_HOUR))})`;
  const day = d.intDiv(local, frag(String(US_PER_DAY)));
  if (interval === 'day') return sql`(${day} * ${frag(String(US_PER_DAY))})`;
  if (interval === 'week') return sql`((${day} - (${day} + 3) % 7) * ${frag(String(US_PER_DAY))})`;
  throw new Error(`unknown interval ${interval}`);
}

/** A bucket start as its label: 'YYYY-MM-DD' (day; a week by its Monday; a month by its 1st) or 'YYYY-MM-DD HH:00:00'. */
/** The strftime format of a bucket's label. */
export const labelFormat = (interval: Interval) => FORMAT[interval];

export const bucketLabelSql = (interval: Interval, expr: string, d: Dialect = DUCKDB): Fragment => d.formatMicros(frag(expr), FORMAT[interval]);

/**
 * Every bucket label of the range, in order. Hours are walked as real instants, so a spring-forward day
 * has 23 buckets and the repeated hour of a fall-back day is one bucket.
 */
export function bucketLabels(r: Range, interval: Interval, max = MAX_BUCKETS): string[] {
  const out: string[] = [];
  const push = (label: string) => {
    if (out[out.length - 1] === label) return;
    if (out.length >= max) throw invalidQuery(`Invalid interval: '${interval}' gives more than ${max} buckets for this range; choose a coarser interval`);
    out.push(label);
  };
  if (interval === 'hour') {
    const end = Date.parse(r.toUtc);
    // The zone's offsets over the range, found once (formatting every hour in the zone costs ~14 ms for 90 days).
    const changes = offsetChanges(Date.parse(r.fromUtc), end, r.timezone);
    let k = 0;
    const label = (t: number) => {
      while (k + 1 < changes.length && changes[k + 1]!.at <= t) k++;
      while (k > 0 && changes[k]!.at > t) k--;
      const local = new Date(t + changes[k]!.offset).toISOString();
      return `${local.slice(0, 10)} ${local.slice(11, 13)}:00:00`;
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
