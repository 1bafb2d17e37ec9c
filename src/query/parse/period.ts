// Contract §7 periods → a date range in the site's zone plus the UTC instants bounding it (DST-correct).
import { invalidQuery } from '../errors.ts';
import { addDays, addMonths, daysBetween, DATE_EXPECTED, isDate, iso, monthEnd, monthStart, startOfDayUtc, todayIn } from './calendar.ts';

export const PERIODS = ['day', '7d', '30d', 'month', '12mo', 'custom', 'realtime', 'all'] as const;
export type Period = (typeof PERIODS)[number];
export const COMPARISONS = ['previous_period', 'year_over_year', 'none'] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** from/to are inclusive local dates; [fromUtc, toUtc) is the half-open instant range the SQL reads. */
export type Range = { period: Period; from: string; to: string; timezone: string; fromUtc: string; toUtc: string };

export type PeriodInput = { period?: string; date?: string; from?: string; to?: string };

export const REALTIME_MS = 30 * 60_000;

function dateParam(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!isDate(v)) throw invalidQuery(`Invalid ${name}: ${DATE_EXPECTED}`);
  return v;
}

/** A range of whole local days [from, to]. */
export function dayRange(period: Period, from: string, to: string, tz: string): Range {
  return { period, from, to, timezone: tz, fromUtc: iso(startOfDayUtc(from, tz)), toUtc: iso(startOfDayUtc(addDays(to, 1), tz)) };
}

export function realtimeRange(tz: string, now = Date.now()): Range {
  const today = todayIn(tz, now);
  return { period: 'realtime', from: todayIn(tz, now - REALTIME_MS), to: today, timezone: tz, fromUtc: iso(now - REALTIME_MS), toUtc: iso(now + 1000) };
}

/**
 * Resolve period/date/from/to for a site. `firstDate` gives the local date of the site's first
 * stored visit (for `all`); it is only called when needed.
 */
export async function resolvePeriod(input: PeriodInput, tz: string, firstDate: () => Promise<string | null>): Promise<Range> {
  const period = (input.period ?? '30d') as Period;
  if (!PERIODS.includes(period)) throw invalidQuery(`Invalid period '${input.period}': expected one of ${PERIODS.join(', ')}`);
  const base = dateParam('date', input.date) ?? todayIn(tz);
  switch (period) {
    case 'realtime':
      return realtimeRange(tz);
    case 'day':
      return dayRange(period, base, base, tz);
    case '7d':
      return dayRange(period, addDays(base, -6), base, tz);
    case '30d':
      return dayRange(period, addDays(base, -29), base, tz);
    case 'month':
      return dayRange(period, monthStart(base), monthEnd(base), tz);
    case '12mo':
      return dayRange(period, addMonths(monthStart(base), -11), monthEnd(base), tz);
    case 'all': {
      const today = todayIn(tz);
      const first = (await firstDate()) ?? today;
      return dayRange(period, first < today ? first : today, today, tz);
    }
    case 'custom': {
      const from = dateParam('from', input.from);
      const to = dateParam('to', input.to);
      if (!from || !to) throw invalidQuery('Invalid range: period=custom requires both from and to (YYYY-MM-DD)');
      if (from > to) throw invalidQuery(`Invalid range: from (${from}) is after to (${to})`);
      if (daysBetween(from, to) > 366 * 20) throw invalidQuery('Invalid range: at most 20 years');
      return dayRange(period, from, to, tz);
    }
  }
}

/**
 * The range a period is compared with: the same-length range just before (calendar months for
 * month and 12mo, so March compares with February), or the same dates a year back.
 */
export function comparisonRange(r: Range, mode: Comparison): Range | null {
  if (mode === 'none') return null;
  if (r.period === 'realtime') {
    const len = Date.parse(r.toUtc) - Date.parse(r.fromUtc);
    const shift = mode === 'year_over_year' ? 365 * 86_400_000 : len;
    return { ...r, fromUtc: iso(Date.parse(r.fromUtc) - shift), toUtc: iso(Date.parse(r.toUtc) - shift) };
  }
  if (mode === 'year_over_year') return dayRange(r.period, addMonths(r.from, -12), addMonths(r.to, -12), r.timezone);
  if (r.period === 'month') return dayRange(r.period, addMonths(r.from, -1), monthEnd(addMonths(r.from, -1)), r.timezone);
  if (r.period === '12mo') return dayRange(r.period, addMonths(r.from, -12), addDays(r.from, -1), r.timezone);
  const days = daysBetween(r.from, r.to) + 1;
  return dayRange(r.period, addDays(r.from, -days), addDays(r.from, -1), r.timezone);
}

export const rangeEcho = (r: Range) => ({ from: r.from, to: r.to, timezone: r.timezone });
