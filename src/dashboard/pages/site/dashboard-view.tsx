// The site dashboard: top bar, filters, metric cards, main chart, and the panels. Every request starts at once
// (uPlot's chunk too): nothing waits on another response.
import { useMemo, useState } from 'preact/hooks';
import type { Site } from '../../api/types.ts';
import { todayIn } from '../../components/dates.ts';
import { LiveCheck, Snippet } from '../../components/snippet.tsx';
import { useData } from '../../components/use-data.ts';
import { useRemembered } from '../../components/use-remembered.ts';
import { loc } from '../../router.ts';
import { buildSeries, daysOf } from './chart-series.ts';
import { FilterBar } from './filter-bar.tsx';
import { FunnelsPanel } from './funnels-panel.tsx';
import { GoalsPanel } from './goals-panel.tsx';
import { loadUPlot, MainChart } from './main-chart.tsx';
import { MetricCards } from './metric-cards.tsx';
import { BreakdownPanel } from './panel.tsx';
import { PANELS } from './panel-defs.ts';
import { PropertiesPanel } from './properties-panel.tsx';
import { readView, setParams, setPeriod } from './query-state.ts';
import type { Scope } from './scope.ts';
import { TopBar } from './top-bar.tsx';

const COMPARE = { off: 'none', previous: 'previous_period', year: 'year_over_year' } as const;

export function DashboardView({ scope, sites }: { scope: Scope; sites?: Site[] }) {
  const { api, orgId, site } = scope;
  const today = todayIn(site.timezone);
  const search = loc.value.search;
  const view = useMemo(() => readView(search, today), [search, today]);
  // Bumped when the first events arrive, so every request of the empty dashboard runs again.
  const [generation, setGeneration] = useState(0);
  const k = [site.id, view.api.period, view.api.date, view.api.from, view.api.to, view.api.filters, generation];
  void loadUPlot();

  const stats = useData((s) => api.analytics.stats(orgId, site.id, { ...view.api, compare: COMPARE[view.compare] }, s), [...k, view.compare]);
  const chart = useData((s) => api.analytics.charts(orgId, site.id, { ...view.api, interval: view.interval }, s), [...k, view.interval]);
  const cmp = view.compareRange;
  const cmpChart = useData((s) => (cmp ? api.analytics.charts(orgId, site.id, { ...view.api, period: 'custom', date: undefined, from: cmp.from, to: cmp.to, interval: view.interval }, s) : Promise.resolve(undefined)),
    [...k, view.interval, cmp?.from, cmp?.to]);
  const revenue = useData((s) => api.analytics.revenue(orgId, site.id, { ...view.api, compare: COMPARE[view.compare], interval: view.interval }, s), [...k, view.compare, view.interval]);
  const cmpRevenue = useData((s) => (cmp && view.metric === 'revenue' ? api.analytics.revenue(orgId, site.id, { ...view.api, period: 'custom', date: undefined, from: cmp.from, to: cmp.to, interval: view.interval, compare: 'none' }, s) : Promise.resolve(undefined)),
    [...k, view.interval, cmp?.from, cmp?.to, view.metric]);
  const goals = useRemembered(scope.shared ? undefined : `goals-${site.id}`, () => api.goals.list(orgId, site.id), [site.id]);
  const goalStats = useData((s) => api.goals.stats(orgId, site.id, view.api, s), k);
  const funnels = useRemembered(scope.shared ? undefined : `funnels-${site.id}`, () => api.funnels.list(orgId, site.id), [site.id]);
  const hasAny = useData(() => (stats.data && stats.data.metrics.events === 0 && !view.filters.length
    ? api.analytics.stats(orgId, site.id, { period: 'all', compare: 'none' }).then((r) => r.metrics.events > 0) : Promise.resolve(true)), [site.id, stats.data, generation]);

  const goalFilter = view.filters.find((f) => f.dimension === 'goal' && f.operator === 'is');
  const goalStat = goalFilter ? goalStats.data?.goals.find((g) => g.id === goalFilter.value) : undefined;
  const cmpGoalStats = useData((s) => (cmp && goalFilter ? api.goals.stats(orgId, site.id, { ...view.api, period: 'custom', date: undefined, from: cmp.from, to: cmp.to }, s) : Promise.resolve(undefined)),
    [...k, cmp?.from, cmp?.to, goalFilter?.value]);
  const prevGoal = goalFilter && cmp ? cmpGoalStats.data?.goals.find((g) => g.id === goalFilter.value) ?? null : undefined;
  // Revenue's answer feeds the chart only when it shows revenue: for any other metric its arrival would build the
  // chart (a new uPlot) once more for nothing.
  const chartRevenue = view.metric === 'revenue' ? revenue.data : undefined;
  const series = useMemo(() => chart.data && buildSeries(chart.data, view.metric, today, site.timezone, cmpChart.data, chartRevenue, cmpRevenue.data),
    [chart.data, cmpChart.data, chartRevenue, cmpRevenue.data, view.metric]);

  if (hasAny.data === false) {
    return (
      <div class="dashboard">
        <TopBar scope={scope} view={view} today={today} sites={sites} />
        <div class="card narrow onboarding">
          <h2>No events yet</h2>
          {scope.shared ? <p class="muted">This site has not received any events yet.</p> : <><Snippet site={site} /><LiveCheck api={api} orgId={orgId} site={site} onLive={() => setTimeout(() => setGeneration((g) => g + 1), 1500)} /></>}
        </div>
      </div>
    );
  }
  return (
    <div class="dashboard">
      <TopBar scope={scope} view={view} today={today} sites={sites} />
      <FilterBar view={view} goals={goals.data?.goals} />
      <MetricCards stats={stats.data} view={view} goal={goalStat} prevGoal={prevGoal} revenue={revenue.data} currency={site.currency} error={stats.error} busy={stats.loading || revenue.loading || goalStats.loading || cmpGoalStats.loading} />
      <section class="card chart-card" aria-label="Chart" aria-busy={chart.loading || cmpChart.loading || cmpRevenue.loading ? 'true' : undefined}>
        <div class="chart-head">
          <h2 class="sr-only">Chart</h2>
          <div class="tabs" role="group" aria-label="Interval">
            {view.intervals.map((i) => <button type="button" class="tab" aria-pressed={i === view.interval} onClick={() => setParams({ interval: i })}>{i[0]!.toUpperCase() + i.slice(1)}</button>)}
          </div>
        </div>
        {chart.error && <div class="panel-msg panel-error" role="alert">{chart.error}</div>}
        {!chart.error && !series && <div class="chart-skeleton skeleton" />}
        {series && chart.data && (
          <MainChart series={series} metric={view.metric} interval={chart.data.interval} annotations={chart.data.annotations} currency={site.currency}
            comparing={view.compare !== 'off' && !!cmpChart.data}
            onZoom={(i, j) => { const r = daysOf(series.dates, chart.data!.interval, i, j); setPeriod({ period: 'custom', date: today, ...r }, today); }} />
        )}
      </section>
      <div class="panels">
        {PANELS.map((def) => <BreakdownPanel scope={scope} view={view} def={def} />)}
        <GoalsPanel scope={scope} view={view} stats={goalStats} goals={goals.data?.goals} />
        {/* Shared links cannot call POST …/query (access/share-reach.ts), which the Properties panel reads. */}
        {!scope.shared && <PropertiesPanel scope={scope} view={view} />}
        <FunnelsPanel scope={scope} view={view} funnels={funnels.data?.funnels} error={funnels.error} wide={scope.shared} />
      </div>
    </div>
  );
}
