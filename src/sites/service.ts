// Sites of an organization: create, patch, delete (with all their analytics data); reads come from the site cache.
import type { Database } from '../storage/database.ts';
import { randomHex } from '../security/tokens.ts';
import { SITE_COLUMNS, type SiteCache } from './site-cache.ts';
import type { Site } from './model.ts';
import type { Serial } from '../storage/serial.ts';

/** Tables whose rows belong to one site and go when the site goes. */
const SITE_OWNED_TABLES = ['visits', 'visitors', 'purchases', 'event_counts', 'visitor_history', 'marks_stale', 'retention_floors'];

export const publicSite = ({ org_id: _org, ...site }: Site) => site;

export async function createSite(db: Database, cache: SiteCache, orgId: string, input: { domain: string; name?: string; timezone?: string; currency?: string }) {
  const site = await db.one<Site>(`INSERT INTO sites (id, org_id, public_id, domain, name, timezone, currency, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, now()::TIMESTAMP) RETURNING ${SITE_COLUMNS}`, [
    crypto.randomUUID(),
    orgId,
    `pk_live_${randomHex(16)}`,
    input.domain,
    input.name ?? input.domain,
    input.timezone ?? 'UTC',
    input.currency ?? 'USD',
  ]);
  return remember(cache, site!);
}

export async function patchSite(db: Database, cache: SiteCache, site: Site, input: { name?: string; timezone?: string; currency?: string; retention_months?: number | null }) {
  // One statement for any subset of fields: an absent one keeps its value (retention_months: null is "keep forever").
  const updated = await db.one<Site>(
    `UPDATE sites SET name = COALESCE(?, name), timezone = COALESCE(?, timezone), currency = COALESCE(?, currency),
       retention_months = CASE WHEN ? THEN ?::INTEGER ELSE retention_months END
     WHERE id = ?::UUID RETURNING ${SITE_COLUMNS}`,
    [input.name ?? null, input.timezone ?? null, input.currency ?? null, input.retention_months !== undefined, input.retention_months ?? null, site.id],
  );
  return remember(cache, updated!);
}

export async function deleteSite(db: Database, cache: SiteCache, analyticsWrites: Serial, site: Site) {
  cache.remove(site.id);
  // Queued with the loader and compaction so the delete never races a batch touching the same rows.
  await analyticsWrites.run(() =>
    db.transaction(async (tx) => {
      for (const t of SITE_OWNED_TABLES) await tx.exec(`DELETE FROM ${t} WHERE site_id = ?`, [site.id]);
      await tx.exec('DELETE FROM sites WHERE id = ?::UUID', [site.id]);
    }),
  );
  for (const hook of cache.deleteHooks) await hook(site.id);
  return { id: site.id };
}

function remember(cache: SiteCache, site: Site): Site {
  cache.put(site);
  return site;
}
