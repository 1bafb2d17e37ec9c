// /sites/:id/visitors/:visitorId: a visitor's profile with totals, and their timeline grouped by visit (a new visit
// after 30 minutes without events, as sessions are counted), newest first, paged.
import type { TimelineEvent } from '../../api/types.ts';
import { fmtDateTime, fmtDuration, fmtMoney, fmtNumber } from '../../components/format.ts';
import { SiteNav } from '../../components/site-nav.tsx';
import { useData } from '../../components/use-data.ts';
import { loc, navigate, withParams } from '../../router.ts';
import { api, org } from '../../state/session.ts';
import { useSite } from '../site/use-site.ts';
import { visitorName } from './visitors-page.tsx';

const GAP_MS = 30 * 60_000;
const LIMIT = 100;

/** Events (newest first) split into visits. */
function visits(events: TimelineEvent[]): TimelineEvent[][] {
  const out: TimelineEvent[][] = [];
  let prev: number | undefined;
  for (const e of events) {
    const t = Date.parse(e.timestamp);
    if (prev === undefined || prev - t >= GAP_MS) out.push([]);
    out[out.length - 1]!.push(e);
    prev = t;
  }
  return out;
}

function describe(e: TimelineEvent): string {
  if (e.event_type === 'pageview') return `Viewed ${e.path ?? e.url ?? ''}`;
  if (e.event_type === 'purchase') return `Purchase${e.revenue !== null ? ` of ${fmtMoney(e.revenue, e.currency ?? 'USD')}` : ''}`;
  if (e.event_type === 'outbound') return `Left to ${e.url ?? ''}`;
  if (e.event_type === 'download') return `Downloaded ${e.url ?? ''}`;
  return `${e.event_name ?? e.event_type}${e.path ? ` on ${e.path}` : ''}`;
}

export function VisitorPage({ params }: { params: string[] }) {
  const { site, error } = useSite(params[0]!);
  const visitorId = params[1]!;
  const page = Math.max(1, Number(new URLSearchParams(loc.value.search).get('page')) || 1);
  const res = useData(() => (site ? api.visitors.timeline(org.value!.id, site.id, visitorId, { page, limit: LIMIT }) : Promise.resolve(undefined)), [site?.id, visitorId, page]);
  if (error) return <div class="alert" role="alert">{error}</div>;
  if (!site) return <p class="muted">Loading…</p>;
  const v = res.data?.visitor;
  const pages = Math.max(1, Math.ceil((res.data?.pagination.total ?? 0) / LIMIT));
  return (
    <>
      <SiteNav siteId={site.id} name={site.name || site.domain} />
      <p><a href={`/sites/${site.id}/visitors`}>← All visitors</a></p>
      {res.error && <div class="alert" role="alert">{res.error}</div>}
      {v && (
        <div class="card profile">
          <div class="profile-head">
            <span class="avatar" aria-hidden="true">{visitorName(v)[0]?.toUpperCase()}</span>
            <div><h1>{visitorName(v)}</h1><div class="muted">{[v.email, v.external_id && `ID ${v.external_id}`, v.uid && `UID ${v.uid}`].filter(Boolean).join(' · ')}</div></div>
          </div>
          <dl class="totals">
            <div><dt>Visits</dt><dd>{fmtNumber(v.total_sessions)}</dd></div>
            <div><dt>Pageviews</dt><dd>{fmtNumber(v.total_pageviews)}</dd></div>
            <div><dt>Goals</dt><dd>{fmtNumber(v.total_goals)}</dd></div>
            <div><dt>Revenue</dt><dd>{fmtMoney(v.total_revenue ?? 0, site.currency)}</dd></div>
            <div><dt>First seen</dt><dd>{v.first_seen_at ? fmtDateTime(v.first_seen_at) : '—'}</dd></div>
            <div><dt>Last seen</dt><dd>{v.last_seen_at ? fmtDateTime(v.last_seen_at) : '—'}</dd></div>
          </dl>
        </div>
      )}
      <h2 class="section-title">Timeline</h2>
      {res.data && !res.data.events.length && <div class="card empty">No events recorded.</div>}
      {res.data && visits(res.data.events).map((visit) => {
        const first = visit[visit.length - 1]!, last = visit[0]!;
        const secs = (Date.parse(last.timestamp) - Date.parse(first.timestamp)) / 1000;
        return (
          <section class="card visit" aria-label={`Visit on ${fmtDateTime(first.timestamp)}`}>
            <div class="visit-head">
              <strong>{fmtDateTime(first.timestamp)}</strong>
              <span class="muted">{visit.length} event{visit.length === 1 ? '' : 's'} · {fmtDuration(secs)}{first.referrer ? ` · from ${first.referrer}` : ''}{[first.country, first.browser, first.device].some(Boolean) ? ` · ${[first.country, first.browser, first.device].filter(Boolean).join(', ')}` : ''}</span>
            </div>
            <ol class="events">
              {[...visit].reverse().map((e) => (
                <li class={`event event-${e.event_type}`}>
                  <time dateTime={e.timestamp}>{new Date(e.timestamp).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })}</time>
                  <span>{describe(e)}</span>
                </li>
              ))}
            </ol>
          </section>
        );
      })}
      {pages > 1 && (
        <div class="pager">
          <span class="muted">Page {page} of {pages}</span>
          <div class="row-actions">
            <button type="button" class="btn btn-sm" disabled={page <= 1} onClick={() => navigate(loc.value.path + withParams({ page: page > 2 ? String(page - 1) : null }))}>← Newer</button>
            <button type="button" class="btn btn-sm" disabled={page >= pages} onClick={() => navigate(loc.value.path + withParams({ page: String(page + 1) }))}>Older →</button>
          </div>
        </div>
      )}
    </>
  );
}
