// The dashboard's view state, read from and written to the URL (period, comparison, filters, charted metric, each
// panel's tab, the funnel shown), so a view reloads, bookmarks, shares, and back/forward restore it.
import { computed } from '@preact/signals';
import type { Filter, Interval } from '../../api/types.ts';
import { daysBetween } from '../../components/dates.ts';
import { loc, navigate, withParams } from '../../router.ts';
import { apiPeriod, compareRange, defaultInterval, intervalsFor, rangeOf, type Compare, type Period, type PeriodKey } from './period.ts';

export type ChartMetric = 'visitors' | 'visits' | 'pageviews' | 'views_per_visit' | 'bounce_rate' | 'visit_duration' | 'revenue';
const METRICS: ChartMetric[] = ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration', 'revenue'];
const PERIODS: PeriodKey[] = ['day', '7d', '30d', 'month', '12mo', 'year', 'all', 'custom'];
const OPERATORS = ['is', 'is_not', 'contains', 'not_contains', 'matches', 'not_matches'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type ViewState = {
  period: Period;
  compare: Compare;
  metric: ChartMetric;
  interval: Interval;
  intervals: Interval[];
  filters: Filter[];
  tab: (panel: string, fallback: string) => string;
  param: (key: string) => string | null;
  /** API query parameters: the period and the filters. */
  api: Record<string, string>;
  range?: { from: string; to: string };
  compareRange?: { from: string; to: string };
};

/** `f=dimension|operator|value` (value may hold further '|'). */
export const encodeFilter = (f: Filter) => `${f.dimension}|${f.operator}|${f.value}`;
function decodeFilter(s: string): Filter | undefined {
  const [dimension, operator, ...rest] = s.split('|');
  if (!dimension || !OPERATORS.includes(operator as any) || !rest.length) return undefined;
  return { dimension, operator: operator as Filter['operator'], value: rest.join('|') };
}

export function readView(search: string, today: string): ViewState {
  const q = new URLSearchParams(search);
  const key = q.get('period') as PeriodKey;
  const date = q.get('date');
  const period: Period = {
    period: PERIODS.includes(key) ? key : '30d',
    date: date && DATE.test(date) && date <= today ? date : today,
    from: DATE.test(q.get('from') ?? '') ? q.get('from')! : undefined,
    to: DATE.test(q.get('to') ?? '') ? q.get('to')! : undefined,
  };
  if (period.period === 'custom' && (!period.from || !period.to || period.from > period.to)) Object.assign(period, { period: '30d', from: undefined, to: undefined });
  const c = q.get('compare');
  const compare: Compare = period.period === 'all' ? 'off' : c === 'off' || c === 'year' ? c : 'previous';
  const m = q.get('metric') as ChartMetric;
  const range = rangeOf(period, today);
  const days = range ? daysBetween(range.from, range.to) + 1 : undefined;
  const intervals = intervalsFor(days);
  const i = q.get('interval') as Interval;
  const filters = q.getAll('f').map(decodeFilter).filter((f): f is Filter => !!f);
  const api = { ...apiPeriod(period, today), ...(filters.length ? { filters: JSON.stringify(filters) } : {}) };
  return {
    period, compare, filters, range, api,
    metric: METRICS.includes(m) ? m : 'visitors',
    interval: intervals.includes(i) ? i : intervals.includes(defaultInterval(days)) ? defaultInterval(days) : intervals[0]!,
    intervals,
    tab: (panel, fallback) => q.get(panel) ?? fallback,
    param: (k) => q.get(k),
    compareRange: range && compareRange(range, compare),
  };
}

/** Pushes a new URL with `changes` applied to the current search. */
export function setParams(changes: Record<string, string | null | undefined>, opts: { replace?: boolean } = {}): void {
  navigate(loc.value.path + withParams(changes), opts);
}

/** `today` (the site's) is left out of the URL, so "Last 7 days" stays the last 7 days when the link is opened later. */
export function setPeriod(p: Period, today: string): void {
  setParams({ period: p.period, date: p.period === 'custom' || p.date === today ? null : p.date, from: p.from ?? null, to: p.to ?? null, interval: null });
}

/** The URL with a filter list (replacing all f= params). */
export function setFilters(filters: Filter[]): void {
  const q = new URLSearchParams(loc.value.search);
  q.delete('f');
  for (const f of filters) q.append('f', encodeFilter(f));
  const s = q.toString();
  navigate(loc.value.path + (s ? `?${s}` : ''));
}

export function addFilter(view: ViewState, f: Filter): void {
  setFilters([...view.filters.filter((x) => x.dimension !== f.dimension), f]);
}

export const search = computed(() => loc.value.search);
