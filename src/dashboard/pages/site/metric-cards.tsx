// The metric cards: each total with its change against the comparison; clicking a card charts that metric.
import type { GoalStat, Revenue, Stats } from '../../api/types.ts';
import { fmtDuration, fmtMoney, fmtNumber, fmtPercent } from '../../components/format.ts';
import { setParams, type ChartMetric, type ViewState } from './query-state.ts';

type Card = { key: string; label: string; value: string; change: number | null | undefined; chart?: ChartMetric; lowerIsBetter?: boolean };

function Change({ change, lowerIsBetter }: { change: number | null | undefined; lowerIsBetter?: boolean }) {
  if (change === undefined) return null;
  if (change === null) return <span class="change muted">—</span>;
  const up = change > 0;
  const good = change === 0 ? undefined : up !== !!lowerIsBetter;
  return (
    <span class={`change ${good === undefined ? 'muted' : good ? 'good' : 'bad'}`}>
      <span aria-hidden="true">{change === 0 ? '' : up ? '↑' : '↓'}</span>
      <span class="sr-only">{up ? 'up' : change === 0 ? 'unchanged' : 'down'} </span>{Math.abs(change).toFixed(0)}%
    </span>
  );
}

/** Percent change like the API's: null when there is nothing to compare with. */
const pct = (now: number, before: number | undefined) => (before ? Math.round(((now - before) / before) * 1000) / 10 : null);

export function MetricCards({ stats, view, goal, prevGoal, revenue, currency, error, busy }: {
  stats?: Stats; view: ViewState; goal?: GoalStat; prevGoal?: GoalStat | null; revenue?: Revenue; currency: string; error?: string; busy?: boolean;
}) {
  const m = stats?.metrics;
  const c = stats?.previous ? stats.change : undefined;
  const compared = view.compare !== 'off';
  const ch = (k: keyof Stats['change']) => (compared ? c?.[k] ?? null : undefined);
  const cards: Card[] = m ? [
    { key: 'visitors', label: 'Unique visitors', value: fmtNumber(m.visitors), change: ch('visitors'), chart: 'visitors' },
    { key: 'visits', label: 'Total visits', value: fmtNumber(m.visits), change: ch('visits'), chart: 'visits' },
    { key: 'pageviews', label: 'Total pageviews', value: fmtNumber(m.pageviews), change: ch('pageviews'), chart: 'pageviews' },
    { key: 'views_per_visit', label: 'Views per visit', value: m.views_per_visit.toFixed(2), change: ch('views_per_visit'), chart: 'views_per_visit' },
    { key: 'bounce_rate', label: 'Bounce rate', value: fmtPercent(m.bounce_rate), change: ch('bounce_rate'), chart: 'bounce_rate', lowerIsBetter: true },
    { key: 'visit_duration', label: 'Visit duration', value: fmtDuration(m.visit_duration), change: ch('visit_duration'), chart: 'visit_duration' },
  ] : [];
  if (goal) {
    const cmpOn = compared && prevGoal !== undefined;
    cards.push({ key: 'conversions', label: 'Conversions', value: fmtNumber(goal.completions), change: cmpOn ? pct(goal.completions, prevGoal?.completions) : undefined });
    cards.push({ key: 'conversion_rate', label: 'Conversion rate', value: fmtPercent(goal.conversion_rate), change: cmpOn ? pct(goal.conversion_rate, prevGoal?.conversion_rate) : undefined });
  }
  if (revenue && (goal || revenue.metrics.revenue > 0)) {
    cards.push({ key: 'revenue', label: 'Revenue', value: fmtMoney(revenue.metrics.revenue, revenue.currency || currency), change: compared ? revenue.change.revenue : undefined, chart: 'revenue' });
  }
  if (error) return <div class="alert" role="alert">{error}</div>;
  return (
    <div class="cards" role="group" aria-label="Totals" aria-busy={busy ? 'true' : undefined}>
      {!m && Array.from({ length: 6 }, () => <div class="metric card"><span class="skeleton" /><span class="skeleton wide" /></div>)}
      {cards.map((k) => {
        const body = (
          <>
            <span class="metric-label">{k.label}</span>
            <span class="metric-value">{k.value}</span>
            <Change change={k.change} lowerIsBetter={k.lowerIsBetter} />
          </>
        );
        return k.chart
          ? <button type="button" class={`metric card ${view.metric === k.chart ? 'active' : ''}`} aria-pressed={view.metric === k.chart}
              data-metric={k.key} onClick={() => setParams({ metric: k.chart === 'visitors' ? null : k.chart })}>{body}</button>
          : <div class="metric card" data-metric={k.key}>{body}</div>;
      })}
    </div>
  );
}
