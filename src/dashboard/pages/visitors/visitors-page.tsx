// /sites/:id/visitors: the site's visitors, newest first, with search (email, name, uid, external id) and paging in the URL.
import { SiteNav } from '../../components/site-nav.tsx';
import { fmtDateTime, fmtMoney, fmtNumber } from '../../components/format.ts';
import { useData } from '../../components/use-data.ts';
import { loc, navigate, withParams } from '../../router.ts';
import { api, org } from '../../state/session.ts';
import { useSite } from '../site/use-site.ts';

const LIMIT = 25;

export const visitorName = (v: Record<string, any>) => v.name || v.email || v.external_id || `Visitor ${String(v.uid ?? v.id).slice(0, 8)}`;

export function VisitorsPage({ params }: { params: string[] }) {
  const { site, error } = useSite(params[0]!);
  const q = new URLSearchParams(loc.value.search);
  const search = q.get('search') ?? '';
  const page = Math.max(1, Number(q.get('page')) || 1);
  const res = useData(() => (site ? api.visitors.list(org.value!.id, site.id, { search, page, limit: LIMIT }) : Promise.resolve(undefined)), [site?.id, search, page]);
  if (error) return <div class="alert" role="alert">{error}</div>;
  if (!site) return <p class="muted">Loading…</p>;
  const total = res.data?.pagination.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LIMIT));
  const go = (changes: Record<string, string | null>) => navigate(loc.value.path + withParams(changes));
  return (
    <>
      <SiteNav siteId={site.id} name={site.name || site.domain} />
      <div class="page-head"><h1>Visitors</h1><span class="muted">{res.data ? `${fmtNumber(total)} visitor${total === 1 ? '' : 's'}` : ''}</span></div>
      <form class="search-bar" role="search" onSubmit={(e) => { e.preventDefault(); go({ search: String(new FormData(e.currentTarget).get('search')).trim() || null, page: null }); }}>
        <label for="visitor-search" class="sr-only">Search visitors</label>
        <input id="visitor-search" name="search" type="search" placeholder="Search by email, name or ID…" defaultValue={search} />
        <button class="btn" type="submit">Search</button>
      </form>
      <div class="card flush" aria-busy={res.loading ? 'true' : undefined}>
        {res.error && <div class="alert" role="alert">{res.error}</div>}
        <div class="table-scroll">
          <table class="data">
            <thead><tr><th>Visitor</th><th>Last seen</th><th class="num">Visits</th><th class="num">Pageviews</th><th class="num">Goals</th><th class="num">Revenue</th><th>Location · device</th></tr></thead>
            <tbody>
              {res.data?.visitors.map((v) => (
                <tr>
                  <td><a href={`/sites/${site.id}/visitors/${encodeURIComponent(v.id)}`}>{visitorName(v)}</a>{v.email && v.name ? <div class="muted small">{v.email}</div> : null}</td>
                  <td>{v.last_seen_at ? fmtDateTime(v.last_seen_at) : '—'}</td>
                  <td class="num">{fmtNumber(v.total_sessions)}</td>
                  <td class="num">{fmtNumber(v.total_pageviews)}</td>
                  <td class="num">{fmtNumber(v.total_goals)}</td>
                  <td class="num">{v.total_revenue ? fmtMoney(v.total_revenue, site.currency) : '—'}</td>
                  <td class="muted">{[v.last_country, v.last_browser, v.last_os].filter(Boolean).join(' · ') || '—'}</td>
                </tr>
              ))}
              {res.data && !res.data.visitors.length && <tr><td colSpan={7} class="empty">{search ? 'No visitor matches this search.' : 'No visitors yet.'}</td></tr>}
            </tbody>
          </table>
        </div>
        <div class="pager">
          <span class="muted">Page {page} of {pages}</span>
          <div class="row-actions">
            <button type="button" class="btn btn-sm" disabled={page <= 1} onClick={() => go({ page: page - 1 > 1 ? String(page - 1) : null })}>← Previous</button>
            <button type="button" class="btn btn-sm" disabled={page >= pages} onClick={() => go({ page: String(page + 1) })}>Next →</button>
          </div>
        </div>
      </div>
    </>
  );
}
