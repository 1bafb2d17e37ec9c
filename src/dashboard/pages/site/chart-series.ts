// The main chart's data: the charted metric per bucket, which bucket is still running (drawn dashed), future
// buckets left empty, bucket labels, and the days a dragged selection covers.
import type { Chart, Interval, Point, Revenue } from '../../api/types.ts';
import { addDays, fmtDay, fmtWith, hourIn, monthEnd } from '../../components/dates.ts';
import { fmtDuration, fmtMoney, fmtNumber, fmtPercent } from '../../components/format.ts';
import type { ChartMetric } from './query-state.ts';

export const METRIC_LABELS: Record<ChartMetric, string> = {
  visitors: 'Visitors', visits: 'Visits', pageviews: 'Pageviews', views_per_visit: 'Views per visit',
  bounce_rate: 'Bounce rate', visit_duration: 'Visit duration', revenue: 'Revenue',
};

export function metricValue(p: Point | undefined, metric: ChartMetric, revenue?: Map<string, number>): number | null {
  if (!p) return null;
  if (metric === 'revenue') return revenue?.get(p.date) ?? 0;
  if (metric === 'views_per_visit') return p.visits ? Math.round((p.pageviews / p.visits) * 100) / 100 : 0;
  return p[metric];
}

export function formatMetric(metric: ChartMetric, v: number | null, currency: string): string {
  if (v === null) return '—';
  if (metric === 'bounce_rate') return fmtPercent(v);
  if (metric === 'visit_duration') return fmtDuration(v);
  if (metric === 'revenue') return fmtMoney(v, currency);
  return fmtNumber(v);
}

/** The key of the bucket holding "now" in the chart's own label format. */
function nowKey(interval: Interval, today: string, timezone: string): string {
  return interval === 'hour' ? `${today} ${String(hourIn(timezone)).padStart(2, '0')}:00:00` : today;
}

export type Series = { labels: string[]; dates: string[]; solid: (number | null)[]; dashed: (number | null)[]; compare?: (number | null)[]; current: number };

export function buildSeries(chart: Chart, metric: ChartMetric, today: string, timezone: string, compare?: Chart, revenue?: Revenue, compareRevenue?: Revenue): Series {
  const pts = chart.points;
  const rev = revenue && new Map(revenue.points.map((p) => [p.date, p.revenue]));
  const crev = compareRevenue && new Map(compareRevenue.points.map((p) => [p.date, p.revenue]));
  const key = nowKey(chart.interval, today, timezone);
  let current = -1;
  if (chart.range.to >= today) for (let i = 0; i < pts.length; i++) if (pts[i]!.date <= key) current = i;
  const values = pts.map((p, i) => (current >= 0 && i > current ? null : metricValue(p, metric, rev)));
  const solid = values.map((v, i) => (current >= 0 && i >= current ? null : v));
  const dashed = values.map((v, i) => (current >= 0 && (i === current || i === current - 1) ? v : null));
  if (current === 0) solid[0] = null;
  return {
    labels: pts.map((p) => bucketLabel(p.date, chart.interval)),
    dates: pts.map((p) => p.date),
    solid, dashed, current,
    compare: compare && pts.map((_, i) => metricValue(compare.points[i], metric, crev)),
  };
}

export function bucketLabel(date: string, interval: Interval): string {
  if (interval === 'hour') return `${date.slice(11, 13)}:00`;
  if (interval === 'month') return fmtWith('en', { month: 'short', year: '2-digit', timeZone: 'UTC' }, new Date(`${date.slice(0, 10)}T00:00:00Z`));
  return fmtDay(date.slice(0, 10));
}

/** The inclusive days buckets i..j cover (a zoom into a dragged selection). */
export function daysOf(dates: string[], interval: Interval, i: number, j: number): { from: string; to: string } {
  const from = dates[i]!.slice(0, 10);
  const last = dates[j]!.slice(0, 10);
  const to = interval === 'week' ? addDays(last, 6) : interval === 'month' ? monthEnd(last) : last;
  return { from, to };
}
