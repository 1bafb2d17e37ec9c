// The period picker's model: what the URL's period/date/from/to mean as an API range, their labels, ← → stepping,
// the comparison range, and which chart intervals a range allows.
import type { Interval } from '../../api/types.ts';
import { addDays, addMonths, daysBetween, fmtDay, fmtMonth, monthEnd, monthStart } from '../../components/dates.ts';

export type PeriodKey = 'day' | '7d' | '30d' | 'month' | '12mo' | 'year' | 'all' | 'custom';
export type Period = { period: PeriodKey; date: string; from?: string; to?: string };
export type Compare = 'off' | 'previous' | 'year';

export const PRESETS: { label: string; key: string; make: (today: string) => Period }[] = [
  { label: 'Today', key: 'd', make: (t) => ({ period: 'day', date: t }) },
  { label: 'Yesterday', key: 'e', make: (t) => ({ period: 'day', date: addDays(t, -1) }) },
  { label: 'Last 7 days', key: 'w', make: (t) => ({ period: '7d', date: t }) },
  { label: 'Last 30 days', key: 't', make: (t) => ({ period: '30d', date: t }) },
  { label: 'This month', key: 'm', make: (t) => ({ period: 'month', date: t }) },
  { label: 'Last month', key: 'l', make: (t) => ({ period: 'month', date: monthEnd(addMonths(t, -1)) }) },
  { label: 'Last 12 months', key: 'y', make: (t) => ({ period: '12mo', date: t }) },
  { label: 'This year', key: 'r', make: (t) => ({ period: 'year', date: t }) },
  { label: 'All time', key: 'a', make: (t) => ({ period: 'all', date: t }) },
];

/** The inclusive day range a period covers (what the comparison and the interval choice are computed from). */
export function rangeOf(p: Period, today: string): { from: string; to: string } | undefined {
  switch (p.period) {
    case 'day': return { from: p.date, to: p.date };
    case '7d': return { from: addDays(p.date, -6), to: p.date };
    case '30d': return { from: addDays(p.date, -29), to: p.date };
    case 'month': return { from: monthStart(p.date), to: monthEnd(p.date) };
    case '12mo': return { from: monthStart(addMonths(p.date, -11)), to: monthEnd(p.date) };
    case 'year': { const y = p.date.slice(0, 4); return { from: `${y}-01-01`, to: y === today.slice(0, 4) ? today : `${y}-12-31` }; }
    case 'custom': return p.from && p.to ? { from: p.from, to: p.to } : undefined;
    default: return undefined;
  }
}

/** Query parameters of the analytics API for a period. */
export function apiPeriod(p: Period, today: string): Record<string, string> {
  if (p.period === 'all') return { period: 'all' };
  if (p.period === 'year' || p.period === 'custom') {
    const r = rangeOf(p, today)!;
    return { period: 'custom', from: r.from, to: r.to };
  }
  return p.date === today ? { period: p.period } : { period: p.period, date: p.date };
}

export function label(p: Period, today: string): string {
  const preset = PRESETS.find((x) => { const q = x.make(today); return q.period === p.period && q.date === p.date && p.period !== 'custom'; });
  if (preset) return preset.label;
  const r = rangeOf(p, today);
  if (p.period === 'day') return fmtDay(p.date, p.date.slice(0, 4) !== today.slice(0, 4));
  if (p.period === 'month') return fmtMonth(p.date);
  if (p.period === 'year') return p.date.slice(0, 4);
  if (!r) return 'All time';
  const withYear = r.from.slice(0, 4) !== r.to.slice(0, 4) || r.to.slice(0, 4) !== today.slice(0, 4);
  return `${fmtDay(r.from, withYear)} – ${fmtDay(r.to, withYear)}`;
}

/** The period one step back (-1) or forward (+1); undefined when it would start after today or cannot step. */
export function step(p: Period, dir: -1 | 1, today: string): Period | undefined {
  let next: Period;
  switch (p.period) {
    case 'day': next = { ...p, date: addDays(p.date, dir) }; break;
    case '7d': next = { ...p, date: addDays(p.date, 7 * dir) }; break;
    case '30d': next = { ...p, date: addDays(p.date, 30 * dir) }; break;
    case 'month': next = { ...p, date: monthEnd(addMonths(monthStart(p.date), dir)) }; break;
    case '12mo': next = { ...p, date: monthEnd(addMonths(monthStart(p.date), 12 * dir)) }; break;
    case 'year': next = { ...p, date: `${Number(p.date.slice(0, 4)) + dir}-12-31` }; break;
    case 'custom': {
      if (!p.from || !p.to) return undefined;
      const len = daysBetween(p.from, p.to) + 1;
      next = { ...p, from: addDays(p.from, len * dir), to: addDays(p.to, len * dir) };
      break;
    }
    default: return undefined;
  }
  const r = rangeOf(next, today)!;
  if (r.from > today) return undefined;
  // Stepping forward into the current period lands on "today" (so This month / Last 7 days show as such).
  if (next.period !== 'custom' && next.date > today) next.date = today;
  return next;
}

/** The range the comparison line and the cards' change are measured against. */
export function compareRange(r: { from: string; to: string }, c: Compare): { from: string; to: string } | undefined {
  if (c === 'off') return undefined;
  if (c === 'year') return { from: addMonths(r.from, -12), to: addMonths(r.to, -12) };
  const len = daysBetween(r.from, r.to) + 1;
  return { from: addDays(r.from, -len), to: addDays(r.from, -1) };
}

/** Intervals that make sense for a range of this many days (the API caps the bucket count). */
export function intervalsFor(days: number | undefined): Interval[] {
  if (days === undefined) return ['day', 'week', 'month'];
  if (days <= 1) return ['hour'];
  if (days <= 7) return ['hour', 'day'];
  if (days <= 40) return ['day', 'week'];
  if (days <= 400) return ['day', 'week', 'month'];
  return ['week', 'month'];
}

export function defaultInterval(days: number | undefined): Interval {
  if (days === undefined) return 'month';
  if (days <= 1) return 'hour';
  return days > 180 ? 'month' : 'day';
}
