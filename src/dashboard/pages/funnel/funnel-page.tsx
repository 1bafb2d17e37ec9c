// /sites/:id/funnels/:funnelId: one funnel's step bars with conversion, drop-off and median time between steps,
// for the period in the URL (the dashboard's period picker).
import { todayIn } from '../../components/dates.ts';
import { SiteNav } from '../../components/site-nav.tsx';
import { useData } from '../../components/use-data.ts';
import { loc } from '../../router.ts';
import { api, org } from '../../state/session.ts';
import { FunnelBars } from '../site/funnel-bars.tsx';
import { PeriodPicker } from '../site/period-picker.tsx';
import { readView } from '../site/query-state.ts';
import { useSite } from '../site/use-site.ts';

export function FunnelPage({ params }: { params: string[] }) {
  const { site, error } = useSite(params[0]!);
  const funnelId = params[1]!;
  const today = todayIn(site?.timezone ?? 'UTC');
  const view = readView(loc.value.search, today);
  const res = useData(() => (site ? api.funnels.analysis(org.value!.id, site.id, funnelId, view.api) : Promise.resolve(undefined)),
    [site?.id, funnelId, view.api.period, view.api.date, view.api.from, view.api.to, view.api.filters]);
  if (error) return <div class="alert" role="alert">{error}</div>;
  if (!site) return <p class="muted">Loading…</p>;
  return (
    <>
      <SiteNav siteId={site.id} name={site.name || site.domain} />
      <p><a href={`/sites/${site.id}${loc.value.search}`}>← Dashboard</a></p>
      <div class="page-head">
        <h1>{res.data?.funnel.name ?? 'Funnel'}</h1>
        <PeriodPicker period={view.period} today={today} />
      </div>
      <div class="card" aria-busy={res.loading ? 'true' : undefined}>
        {res.error && <div class="alert" role="alert">{res.error}</div>}
        {res.data && <FunnelBars analysis={res.data} />}
        {res.data && <p class="muted small spaced">Window: {res.data.funnel.window === 'session' ? 'within one visit' : `within ${res.data.funnel.window} of the first step`}; steps must happen in order.</p>}
      </div>
    </>
  );
}
