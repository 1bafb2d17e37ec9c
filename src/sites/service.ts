// Sites of an organization: create, patch, delete (with all their analytics data); reads come from the site cache.
import type { Database } from '../storage/database.ts';
import { randomHex } from '../security/tokens.ts';
import { SITE_COLUMNS, type SiteCache } from './site-cache.ts';
import type { Site } from './model.ts';
import { SerialByKey, type Serial } from '../storage/serial.ts';
import type { Tx } from '../storage/database.ts';
import { notFound } from '../http/errors.ts';

/** Every module's share of a site's deletion, in its transaction; returns what to do once it committed. */
export type DropSite = (tx: Tx, siteId: string) => Promise<(() => void)[]>;

/**
 * Patches and deletes of one site, one at a time: a patch whose UPDATE ran just before a delete committed
 * put the site back in the cache after the delete had taken it out (a deleted site still listed and taking
 * events). Each one checks, inside the queue, that the site is still there.
 */
const siteWrites = new SerialByKey();
const stillThere = (cache: SiteCache, site: Site) => {
  if (!cache.inOrg(site.org_id, site.id)) throw notFound('Site not found');
};

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
  return siteWrites.run(site.id, async () => {
    stillThere(cache, site);
    // One statement for any subset of fields: an absent one keeps its value (retention_months: null is "keep forever").
    const updated = await db.one<Site>(
      `UPDATE sites SET name = COALESCE(?, name), timezone = COALESCE(?, timezone), currency = COALESCE(?, currency),
         retention_months = CASE WHEN ? THEN ?::INTEGER ELSE retention_months END
       WHERE id = ?::UUID RETURNING ${SITE_COLUMNS}`,
      [input.name ?? null, input.timezone ?? null, input.currency ?? null, input.retention_months !== undefined, input.retention_months ?? null, site.id],
    );
    if (!updated) throw notFound('Site not found');
    return remember(cache, updated);
  });
}

export function deleteSite(db: Database, cache: SiteCache, analyticsWrites: Serial, dropSite: DropSite, site: Site) {
  return siteWrites.run(site.id, async () => {
    stillThere(cache, site);
    return removeSite(db, cache, analyticsWrites, dropSite, site);
  });
}

async function removeSite(db: Database, cache: SiteCache, analyticsWrites: Serial, dropSite: DropSite, site: Site) {
  cache.remove(site.id);
  // Queued with the loader and compaction so the delete never races a batch touching the same rows.
  const afterwards = await analyticsWrites.run(() =>
    db.transaction(async (tx) => {
      const steps = await dropSite(tx, site.id);
      await tx.exec('DELETE FROM sites WHERE id = ?::UUID', [site.id]);
      return steps;
    }),
  );
  for (const step of afterwards) step();
  return { id: site.id };
}

function remember(cache: SiteCache, site: Site): Site {
  cache.put(site);
  return site;
}
