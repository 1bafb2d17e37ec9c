// /: the sites list, each site with its unique visitors of today and yesterday (counted once over the two days) and an hourly sparkline.
import { useEffect, useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import type { Site } from '../../api/types.ts';
import { addDays, hourIn, todayIn } from '../../components/dates.ts';
import { fmtNumber } from '../../components/format.ts';
import { Sparkline } from '../../components/sparkline.tsx';
import { api, org } from '../../state/session.ts';

type Recent = { total: number; hourly: number[] } | 'error';

/**
 * Unique visitors of yesterday and today (so far) in the site's zone, and their hourly sparkline up to the current
 * hour. The API's ranges are whole days, so a rolling 24 h count is not available; summing hourly uniques would count
 * a visitor once per hour seen, while stats over the two-day range counts each visitor once.
 */
async function recent(orgId: string, site: Site): Promise<Recent> {
  try {
    const today = todayIn(site.timezone);
    const range = { period: 'custom', from: addDays(today, -1), to: today };
    const [s, c] = await Promise.all([
      api.analytics.stats(orgId, site.id, range),
      api.analytics.charts(orgId, site.id, { ...range, interval: 'hour' }),
    ]);
    return { total: s.metrics.visitors, hourly: c.points.slice(0, 24 + hourIn(site.timezone) + 1).map((p) => p.visitors) };
  } catch {
    return 'error';
  }
}

function SiteCard({ orgId, site }: { orgId: string; site: Site }) {
  const [data, setData] = useState<Recent | undefined>();
  useEffect(() => void recent(orgId, site).then(setData), [site.id]);
  return (
    <li>
      <a class="site-card card" href={`/sites/${site.id}`}>
        <div class="site-card-head">
          <span class="site-initial" aria-hidden="true">{(site.name || site.domain)[0]?.toUpperCase()}</span>
          <span class="site-name">{site.name || site.domain}</span>
        </div>
        <div class="site-card-body">
          {data === undefined ? <span class="muted">Loading…</span> : data === 'error' ? <span class="muted">No data</span> : (
            <>
              <div><strong class="site-visitors">{fmtNumber(data.total)}</strong> <span class="muted">{data.total === 1 ? 'visitor' : 'visitors'} today and yesterday</span></div>
              <Sparkline values={data.hourly} />
            </>
          )}
        </div>
      </a>
    </li>
  );
}

export function SitesPage() {
  const o = org.value;
  const [sites, setSites] = useState<Site[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    if (o) api.sites.list(o.id).then((r) => setSites(r.sites), (e) => setError(explain(e)));
  }, [o?.id]);
  return (
    <>
      <div class="page-head">
        <h1>Sites</h1>
        <a class="btn btn-primary" href="/sites/new">+ Add site</a>
      </div>
      {error && <div class="alert" role="alert">{error}</div>}
      {sites === undefined && !error && <p class="muted">Loading…</p>}
      {sites?.length === 0 && (
        <div class="card empty">
          <h2>No sites yet</h2>
          <p>Add your first site to get its tracking snippet.</p>
          <a class="btn btn-primary" href="/sites/new">Add a site</a>
        </div>
      )}
      {sites && sites.length > 0 && <ul class="site-grid">{sites.map((s) => <SiteCard key={s.id} orgId={o!.id} site={s} />)}</ul>}
    </>
  );
}
