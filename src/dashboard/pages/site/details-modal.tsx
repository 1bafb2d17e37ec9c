// "Details" of a panel tab: up to 1000 rows with search, sorting by any column, paging, and a CSV of what it shows.
// The rows come from the tab's breakdown report, or from `load` (the Properties panel's query-API rows).
import { useMemo, useState } from 'preact/hooks';
import type { Row } from '../../api/types.ts';
import { downloadCsv } from '../../components/csv.ts';
import { Modal } from '../../components/modal.tsx';
import { useData } from '../../components/use-data.ts';
import { cellText } from './cell.tsx';
import { detailColumns, type Column, type Tab } from './panel-defs.ts';
import type { ViewState } from './query-state.ts';
import type { Scope } from './scope.ts';

const PAGE = 20;

export function DetailsModal({ scope, view, tab, onClose, onPick, load, columns }: {
  scope: Scope; view: ViewState; tab: Tab; onClose: () => void; onPick: (r: Row) => void;
  load?: (limit: number, signal: AbortSignal) => Promise<Row[]>; columns?: Column[];
}) {
  const cols = columns ?? detailColumns(tab);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ key: string; desc: boolean }>({ key: 'visitors', desc: true });
  const [page, setPage] = useState(0);
  const res = useData((signal) => (load ? load(1000, signal).then((results) => ({ results }))
    : scope.api.analytics.breakdown(scope.orgId, scope.site.id, tab.endpoint, { ...view.api, dimension: tab.dimension, limit: 1000 }, signal)), [tab.id, view.api.filters, view.api.period, view.api.date, view.api.from, view.api.to]);
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = (res.data?.results ?? []).filter((r) => !q || (r.label ?? r.name).toLowerCase().includes(q));
    const dir = sort.desc ? -1 : 1;
    return list.sort((a, b) => {
      const x = (a as any)[sort.key], y = (b as any)[sort.key];
      if (sort.key === 'name') return dir * String(a.label ?? a.name).localeCompare(String(b.label ?? b.name));
      return dir * ((x ?? -1) - (y ?? -1));
    });
  }, [res.data, query, sort]);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const shown = rows.slice(page * PAGE, page * PAGE + PAGE);
  const sortBy = (key: string) => { setSort((s) => ({ key, desc: s.key === key ? !s.desc : key !== 'name' })); setPage(0); };
  const aria = (key: string) => (sort.key === key ? (sort.desc ? 'descending' : 'ascending') : undefined);
  const csv = () => downloadCsv(`${scope.site.domain}-${tab.dimension}.csv`, [tab.title, ...cols.map((c) => c.label)],
    rows.map((r) => [r.label ?? r.name, ...cols.map((c) => (r as any)[c.key])]));
  return (
    <Modal title={`${tab.title} details`} onClose={onClose} wide>
      <div class="details-tools">
        <div class="field grow">
          <label for="details-search" class="sr-only">Search {tab.title.toLowerCase()}</label>
          <input id="details-search" type="search" placeholder={`Search ${tab.title.toLowerCase()}…`} value={query}
            onInput={(e) => { setQuery(e.currentTarget.value); setPage(0); }} />
        </div>
        <button type="button" class="btn" onClick={csv} disabled={!rows.length}>Download CSV</button>
      </div>
      {res.error && <div class="alert" role="alert">{res.error}</div>}
      <div class="table-scroll">
        <table class="data details-table">
          <caption class="sr-only">{tab.title} breakdown, sorted by {sort.key}</caption>
          <thead>
            <tr>
              <th aria-sort={aria('name')}><button type="button" class="th-sort" onClick={() => sortBy('name')}>{tab.title}{sort.key === 'name' ? (sort.desc ? ' ↓' : ' ↑') : ''}</button></th>
              {cols.map((c) => (
                <th class="num" aria-sort={aria(c.key)}><button type="button" class="th-sort" onClick={() => sortBy(c.key)}>{c.label}{sort.key === c.key ? (sort.desc ? ' ↓' : ' ↑') : ''}</button></th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr>
                <td><button type="button" class="link-button" onClick={() => onPick(r)} title={`Filter by ${r.label ?? r.name}`}>{r.label ?? r.name}</button></td>
                {cols.map((c) => <td class="num">{cellText(c, (r as any)[c.key], true)}</td>)}
              </tr>
            ))}
            {!shown.length && <tr><td colSpan={cols.length + 1} class="empty">{res.loading ? 'Loading…' : 'No rows match.'}</td></tr>}
          </tbody>
        </table>
      </div>
      <div class="pager">
        <span class="muted">{rows.length ? `${page * PAGE + 1}–${Math.min(rows.length, page * PAGE + PAGE)} of ${rows.length}` : ''}</span>
        <div class="row-actions">
          <button type="button" class="btn btn-sm" disabled={page === 0} onClick={() => setPage(page - 1)}>← Previous</button>
          <button type="button" class="btn btn-sm" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>Next →</button>
        </div>
      </div>
    </Modal>
  );
}
