// The Properties panel: the custom property keys events carry in the period (the query API's event:props), a key
// picker kept in the URL (?prop=), that key's top 9 values with bars from event:props:<key>, Details, and a click
// on a value adds the `prop:<key>` filter. Drawn from POST …/query, which shared links cannot call.
import { useEffect, useState } from 'preact/hooks';
import type { QueryBody, Row } from '../../api/types.ts';
import { useData } from '../../components/use-data.ts';
import { remember, remembered } from '../../state/remembered.ts';
import { DetailsModal } from './details-modal.tsx';
import type { Column, Tab } from './panel-defs.ts';
import { Bars, PanelFrame, PanelState } from './panel.tsx';
import { queryScope } from './query-body.ts';
import { addFilter, setParams, type ViewState } from './query-state.ts';
import type { Scope } from './scope.ts';

const COLUMNS: Column[] = [
  { key: 'visitors', label: 'Visitors', kind: 'number' },
  { key: 'events', label: 'Events', kind: 'number' },
  { key: 'percentage', label: '%', kind: 'share' },
];
const DETAIL_COLUMNS: Column[] = [...COLUMNS,
  { key: 'visits', label: 'Visits', kind: 'number' },
  { key: 'bounce_rate', label: 'Bounce rate', kind: 'percent' },
  { key: 'visit_duration', label: 'Visit duration', kind: 'duration' }];

/** Query-API rows ({dimensions, metrics}) as breakdown rows named by their first dimension. */
const toRows = (metrics: string[]) => (a: { results: { dimensions: string[]; metrics: number[] }[] }): Row[] =>
  a.results.map((r) => Object.fromEntries([['name', r.dimensions[0]], ...metrics.map((m, i) => [m, r.metrics[i]])]) as Row);

export function PropertiesPanel({ scope, view }: { scope: Scope; view: ViewState }) {
  const [details, setDetails] = useState(false);
  const { api, orgId, site } = scope;
  const deps = [view.api.filters, view.api.period, view.api.date, view.api.from, view.api.to];
  // The picker lists the keys by how many events carry them: counting them is half the work of counting their
  // distinct visitors (12 months of 10M events: ~300 vs ~560 ms), and the picker shows no count.
  const keys = useData((signal) => api.analytics.query(orgId, site.id, { ...queryScope(view), metrics: ['events'], dimensions: ['event:props'], pagination: { limit: 100 } }, signal)
    .then(toRows(['events'])), [site.id, ...deps]);
  const wanted = view.param('prop');
  const names = (keys.data ?? []).map((r) => r.name);
  // The key shown last time on this site: its values are asked for beside the key list instead of after it (one
  // round of the two heaviest queries of a long range instead of two in a row), and kept while the period has it.
  const lastKey = remembered<string>(`prop-key-${site.id}`);
  const fallback = keys.data ? (lastKey && names.includes(lastKey) ? lastKey : names[0]) : lastKey;
  // A key from the URL is kept even when the period has none of it (the panel then says so).
  const key = wanted || fallback;
  useEffect(() => { if (key && keys.data && key !== lastKey) remember(`prop-key-${site.id}`, key); }, [key, keys.data]);
  const options = key && !names.includes(key) ? [key, ...names] : names;
  /** The key's values, without the events that lack it (the query API calls them "(none)"). */
  const values = (limit: number, metrics: string[], signal: AbortSignal) => {
    const scoped = queryScope(view);
    const body: QueryBody = { ...scoped, metrics, dimensions: [`event:props:${key}`], pagination: { limit },
      filters: [...(scoped.filters ?? []), ['is_not', `event:props:${key}`, ['(none)']]] };
    return api.analytics.query(orgId, site.id, body, signal).then(toRows(metrics));
  };
  const res = useData((signal) => (key ? values(9, ['visitors', 'events', 'percentage'], signal) : Promise.resolve([])), [site.id, key, ...deps]);
  const rows = key ? res.data ?? [] : [];
  const tab: Tab = { id: `prop-${key}`, label: key ?? '', endpoint: '', dimension: `property-${key}`, filter: `prop:${key}`, title: key ?? 'Value', columns: COLUMNS };
  const pick = (r: Row) => { setDetails(false); addFilter(view, { dimension: `prop:${key}`, operator: 'is', value: r.name }); };
  const loading = keys.loading || (!!key && res.loading);
  return (
    <PanelFrame title="Properties" busy={loading}
      footer={key ? <button type="button" class="btn btn-sm btn-ghost" onClick={() => setDetails(true)} disabled={!rows.length}>Details</button> : undefined}>
      {keys.error && <div class="panel-msg panel-error" role="alert">{keys.error}</div>}
      {!keys.error && !key && !keys.loading && (
        <div class="panel-msg muted"><p>No custom properties in this period. Send them with an event, e.g. <code>tern('track', 'Signup', {'{'} plan: 'pro' {'}'})</code> or <code>data-track-plan="pro"</code>.</p></div>
      )}
      {!keys.error && !key && keys.loading && <PanelState loading empty />}
      {!keys.error && key && (
        <>
          <div class="field panel-pick">
            <label for="prop-key">Property</label>
            <select id="prop-key" value={key} onChange={(e) => setParams({ prop: e.currentTarget.value })}>
              {options.map((k) => <option value={k}>{k}</option>)}
            </select>
          </div>
          <PanelState loading={res.loading} error={res.error} empty={!rows.length} />
          {!!rows.length && !res.error && <Bars rows={rows} title={key} columns={COLUMNS} onPick={pick} />}
        </>
      )}
      {details && key && (
        <DetailsModal scope={scope} view={view} tab={tab} columns={DETAIL_COLUMNS} onClose={() => setDetails(false)} onPick={pick}
          load={(limit, signal) => values(limit, DETAIL_COLUMNS.map((c) => c.key), signal)} />
      )}
    </PanelFrame>
  );
}
