// Loads the organization's sites and picks the one a /sites/:id/… URL names (its id or public id).
import type { Site } from '../../api/types.ts';
import { useRemembered } from '../../components/use-remembered.ts';
import { api, org } from '../../state/session.ts';

export function useSite(id: string): { site?: Site; sites?: Site[]; error?: string; loading: boolean; reload: () => void } {
  const orgId = org.value!.id;
  const key = `sites-${orgId}`;
  const res = useRemembered(key, () => api.sites.list(orgId), [orgId]);
  const site = res.data?.sites.find((s) => s.id === id || s.public_id === id);
  const error = res.error ?? (res.data && !site && !res.loading ? 'Site not found: it may have been deleted, or you may not have access to it.' : undefined);
  return { site, sites: res.data?.sites, error, loading: res.loading && !site, reload: res.reload };
}
