// The Funnels panel: pick one of the site's funnels (kept in the URL) → its step bars for the period and filters.
import type { Funnel } from '../../api/types.ts';
import { useData } from '../../components/use-data.ts';
import { FunnelBars } from './funnel-bars.tsx';
import { PanelFrame, PanelState } from './panel.tsx';
import { setParams, type ViewState } from './query-state.ts';
import type { Scope } from './scope.ts';

export function FunnelsPanel({ scope, view, funnels, error, wide }: { scope: Scope; view: ViewState; funnels?: Funnel[]; error?: string; wide?: boolean }) {
  const chosen = funnels?.find((f) => f.id === view.param('funnel')) ?? funnels?.[0];
  const res = useData((signal) => (chosen ? scope.api.funnels.analysis(scope.orgId, scope.site.id, chosen.id, view.api, signal) : Promise.resolve(undefined)),
    [chosen?.id, view.api.filters, view.api.period, view.api.date, view.api.from, view.api.to]);
  return (
    <PanelFrame title="Funnels" wide={wide} busy={res.loading || funnels === undefined && !error} footer={chosen && !scope.shared ? <a class="btn btn-sm btn-ghost" href={`${scope.base}/funnels/${chosen.id}${location.search}`}>Open funnel</a> : undefined}>
      {error && <div class="panel-msg panel-error" role="alert">{error}</div>}
      {funnels?.length === 0 && <div class="panel-msg muted"><p>No funnels yet.{!scope.shared && <> <a href={`${scope.base}/settings#funnels`}>Create one</a> to see where visitors drop off.</>}</p></div>}
      {chosen && (
        <>
          <div class="field funnel-pick">
            <label for="funnel-pick">Funnel</label>
            <select id="funnel-pick" value={chosen.id} onChange={(e) => setParams({ funnel: e.currentTarget.value })}>
              {funnels!.map((f) => <option value={f.id}>{f.name}</option>)}
            </select>
          </div>
          <PanelState loading={res.loading} error={res.error} empty={!res.data} />
          {res.data && <FunnelBars analysis={res.data} />}
        </>
      )}
    </PanelFrame>
  );
}
