// A breakdown panel: tabs (kept in the URL), the top 9 rows with proportional bars, a click on a row adds its filter,
// "Details" opens the full table; loading and API errors show inside the panel.
import type { ComponentChildren } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { Row } from '../../api/types.ts';
import { useData } from '../../components/use-data.ts';
import { cellText } from './cell.tsx';
import { DetailsModal } from './details-modal.tsx';
import type { Column, PanelDef, Tab } from './panel-defs.ts';
import { addFilter, setParams, type ViewState } from './query-state.ts';
import type { Scope } from './scope.ts';

const CountryMap = lazy(() => import('./country-map.tsx').then((m) => ({ default: m.CountryMap })));

/** `wide`: spans the grid's row, as tall as its content (a short list would leave half a row empty beside a tall panel). */
export function PanelFrame({ title, tabs, active, onTab, children, footer, busy, wide }: {
  title: string; tabs?: { id: string; label: string }[]; active?: string; onTab?: (id: string) => void; children: ComponentChildren; footer?: ComponentChildren; busy?: boolean; wide?: boolean;
}) {
  return (
    <section class={`panel card${wide ? ' panel-wide' : ''}`} aria-label={title} aria-busy={busy ? 'true' : undefined}>
      <div class="panel-head">
        <h2>{title}</h2>
        {tabs && (
          <div class="tabs" role="group" aria-label={`${title} views`}>
            {tabs.map((t) => (
              <button type="button" class="tab" aria-pressed={t.id === active} onClick={() => onTab?.(t.id)}>{t.label}</button>
            ))}
          </div>
        )}
      </div>
      <div class="panel-body">{children}</div>
      {footer && <div class="panel-foot">{footer}</div>}
    </section>
  );
}

export function Bars({ rows, title, columns, onPick, valueKey = 'visitors' }: {
  rows: (Row & Record<string, any>)[]; title: string; columns: Column[]; onPick?: (r: Row) => void; valueKey?: string;
}) {
  const max = Math.max(1, ...rows.map((r) => Number(r[valueKey]) || 0));
  return (
    <table class="bars">
      <thead><tr><th scope="col">{title}</th>{columns.map((c, i) => <th scope="col" class={i > 1 ? 'num opt' : 'num'}>{c.label}</th>)}</tr></thead>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td class="bar-cell">
              <span class="bar" style={{ width: `${(100 * (Number(r[valueKey]) || 0)) / max}%` }} aria-hidden="true" />
              {onPick ? <button type="button" class="bar-label" onClick={() => onPick(r)} title={r.label ?? r.name}>{r.label ?? r.name}</button>
                : <span class="bar-label">{r.label ?? r.name}</span>}
            </td>
            {columns.map((c, i) => <td class={i > 1 ? 'num opt' : 'num'}>{cellText(c, r[c.key])}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function PanelState({ loading, error, empty }: { loading: boolean; error?: string; empty: boolean }) {
  if (error) return <div class="panel-msg panel-error" role="alert">{error}</div>;
  if (loading && empty) return <div class="panel-msg"><span class="skeleton" /><span class="skeleton" /><span class="skeleton" /></div>;
  if (empty) return <div class="panel-msg muted">No data for this period</div>;
  return null;
}

export function BreakdownPanel({ scope, view, def }: { scope: Scope; view: ViewState; def: PanelDef }) {
  const tabId = view.tab(def.id, def.tabs[def.id === 'locations' ? 1 : 0]!.id);
  const tab: Tab = def.tabs.find((t) => t.id === tabId) ?? def.tabs[0]!;
  const [details, setDetails] = useState(false);
  const isMap = tab.id === 'map';
  const res = useData((signal) => scope.api.analytics.breakdown(scope.orgId, scope.site.id, tab.endpoint,
    { ...view.api, dimension: tab.dimension, limit: isMap ? 300 : 9 }, signal), [tab.id, view.api.filters, view.api.period, view.api.date, view.api.from, view.api.to]);
  const rows = res.data?.results ?? [];
  const pick = (r: Row) => { setDetails(false); addFilter(view, { dimension: tab.filter, operator: 'is', value: r.name }); };
  return (
    <PanelFrame title={def.title} tabs={def.tabs} active={tab.id} busy={res.loading} onTab={(id) => setParams({ [def.id]: id }, { replace: false })}
      footer={<button type="button" class="btn btn-sm btn-ghost" onClick={() => setDetails(true)} disabled={!rows.length}>Details</button>}>
      <PanelState loading={res.loading} error={res.error} empty={!rows.length} />
      {!!rows.length && !res.error && (isMap
        ? <Suspense fallback={<div class="panel-msg muted">Loading map…</div>}><CountryMap rows={rows} onPick={pick} /></Suspense>
        : <Bars rows={rows.slice(0, 9)} title={tab.title} columns={tab.columns} onPick={pick} />)}
      {details && <DetailsModal scope={scope} view={view} tab={tab} onClose={() => setDetails(false)} onPick={pick} />}
    </PanelFrame>
  );
}
