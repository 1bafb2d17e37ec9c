// /sites/:id: loads the site (and the organization's sites for the switcher), then shows its dashboard.
import { SiteNav } from '../../components/site-nav.tsx';
import { api, org } from '../../state/session.ts';
import { DashboardView } from './dashboard-view.tsx';
import { useSite } from './use-site.ts';

export function SitePage({ params }: { params: string[] }) {
  const { site, sites, error } = useSite(params[0]!);
  if (error) return <div class="card empty"><h1>Site not available</h1><p role="alert">{error}</p><a class="btn" href="/">Back to your sites</a></div>;
  if (!site) return <p class="muted">Loading…</p>;
  return (
    <>
      <SiteNav siteId={site.id} name={site.name || site.domain} />
      <DashboardView key={site.id} scope={{ api, orgId: org.value!.id, site, shared: false, base: `/sites/${site.id}` }} sites={sites} />
    </>
  );
}
