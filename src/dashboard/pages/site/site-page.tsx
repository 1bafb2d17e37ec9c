// /sites/:id: loads the site (and the organization's sites for the switcher), then shows its dashboard.
import { useData } from '../../components/use-data.ts';
import { api, org } from '../../state/session.ts';
import { DashboardView } from './dashboard-view.tsx';

export function SitePage({ params }: { params: string[] }) {
  const orgId = org.value!.id;
  const id = params[0]!;
  const sites = useData(() => api.sites.list(orgId), [orgId]);
  const site = sites.data?.sites.find((s) => s.id === id || s.public_id === id);
  if (sites.error) return <div class="alert" role="alert">{sites.error}</div>;
  if (!sites.data) return <p class="muted" aria-busy="true">Loading…</p>;
  if (!site) return <div class="card empty"><h1>Site not found</h1><p>It may have been deleted, or you may not have access to it.</p><a class="btn" href="/">Back to your sites</a></div>;
  return <DashboardView key={site.id} scope={{ api, orgId, site, shared: false, base: `/sites/${site.id}` }} sites={sites.data.sites} />;
}
