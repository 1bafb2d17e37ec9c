// Sites of an organization: create, patch, delete (with all their analytics data); reads come from the site cache.
import type { Database } from '../storage/database.ts';
import type { MetaDb, MetaTx } from '../storage/meta-db.ts';
import { randomHex } from '../security/tokens.ts';
import { SITE_COLUMNS, type SiteCache } from './site-cache.ts';
import type { Site } from './model.ts';
import { SerialByKey, type Serial } from '../storage/serial.ts';
import type { Tx } from '../storage/database.ts';
import { notFound } from '../http/errors.ts';
import { log } from '../log.ts';

/** Every module's share of a site's deletion, in its transaction; each returns what to do once it committed. */
export type DropSite = {
  /** Metadata (goals, funnels, annotations, shared links), in the metadata store's transaction. */
  meta(tx: MetaTx, siteId: string): Promise<(() => void)[]>;
  /** Stored events, visits, files and import tables, in a DuckDB transaction behind the analytics writers. */
  stored(tx: Tx, siteId: string): Promise<(() => void)[]>;
};

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

export async function createSite(db: MetaDb, cache: SiteCache, orgId: string, input: { domain: string; name?: string; timezone?: string; currency?: string }) {
  const site = await db.one<Site>(`INSERT INTO sites (id, org_id, public_id, domain, name, timezone, currency, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, now()::TIMESTAMP) RETURNING ${SITE_COLUMNS}`, [
    crypto.randomUUID(),
    orgId,
    `pk_live_${randomHex(16)}`,
    input.domain,
    input.name ?? input.domain,
    input.timezone ?? 'UTC',
    input.currency ?? 'USD',
  ]);
  return cache.record(site!);
}

export async function patchSite(db: MetaDb, cache: SiteCache, site: Site, input: { name?: string; timezone?: string; currency?: string; retention_months?: number | null }) {
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
    return cache.record(updated);
  });
}

export function deleteSite(meta: MetaDb, db: Database, cache: SiteCache, analyticsWrites: Serial, dropSite: DropSite, site: Site) {
  return siteWrites.run(site.id, async () => {
    stillThere(cache, site);
    return removeSite(meta, db, cache, analyticsWrites, dropSite, site);
  });
}

async function removeSite(meta: MetaDb, db: Database, cache: SiteCache, analyticsWrites: Serial, dropSite: DropSite, site: Site) {
  cache.remove(site.id);
  if (meta.dialect === 'duckdb') {
    // One store: metadata and stored rows go in one transaction, queued with the loader and compaction so
    // the delete never races a batch touching the same rows.
    const afterwards = await analyticsWrites.run(() =>
      db.transaction(async (tx) => {
        const steps = [...(await dropSite.meta(tx, site.id)), ...(await dropSite.stored(tx, site.id))];
        await tx.exec('DELETE FROM sites WHERE id = ?::UUID', [site.id]);
        return steps;
      }),
    );
    for (const step of afterwards) step();
    return { id: site.id };
  }
  // PostgreSQL: the metadata first, in one transaction there — from its commit no node serves the site or
  // accepts its events (they learn it by NOTIFY, sites/site-mirror.ts). Then this node's stored rows; a
  // failure there (or a crash) leaves the site in the local mirror, and the mirror's next sync drops it.
  const afterwards = await meta.transaction(async (tx) => {
    const steps = await dropSite.meta(tx, site.id);
    await tx.exec('DELETE FROM sites WHERE id = ?::UUID', [site.id]);
    await cache.announce(tx, site.id);
    return steps;
  });
  // Again after the commit: a mirror sync that read PostgreSQL before it could otherwise put the site back, since
  // the first removal's generation is the one that sync started from (sites/site-cache.ts replaceAll).
  cache.remove(site.id);
  for (const step of afterwards) step();
  await dropStoredSite(db, analyticsWrites, dropSite, site.id).catch((e) =>
    log.error('dropping a deleted site\'s stored data failed; the site mirror retries it', { site: site.id, error: String((e as Error)?.message ?? e) }),
  );
  return { id: site.id };
}

/**
 * A deleted site's stored rows and files on this node, and its row of DuckDB's `sites` (the mirror of
 * PostgreSQL's that the loader and retention read), in one DuckDB transaction: run again after a failure,
 * it finds the mirror row still there and does it all again.
 */
export async function dropStoredSite(db: Database, analyticsWrites: Serial, dropSite: DropSite, siteId: string) {
  const afterwards = await analyticsWrites.run(() =>
    db.transaction(async (tx) => {
      const steps = await dropSite.stored(tx, siteId);
      await tx.exec('DELETE FROM sites WHERE id = ?::UUID', [siteId]);
      return steps;
    }),
  );
  for (const step of afterwards) step();
}
