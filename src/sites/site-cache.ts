// Every site in memory, by id and by public id: ingestion and auth resolve sites without a query.
import type { MetaDb, MetaTx } from '../storage/meta-db.ts';
import type { Site } from './model.ts';

export const SITE_COLUMNS = `id::VARCHAR AS id, org_id::VARCHAR AS org_id, public_id, domain, name, timezone, currency, created_at, retention_months`;

/** With DATABASE_URL (sites/site-mirror.ts): what else learns of a site's change, and when. */
export type SiteChanges = {
  /** Before the cache holds a created or patched site: this node's DuckDB mirror and the other nodes. */
  recorded(site: Site): Promise<void>;
  /** Inside the transaction that deletes the site: tells the other nodes once it commits. */
  announce(tx: MetaTx, siteId: string): Promise<void>;
  /** Reads the shared store again now (a site made on another node a moment ago may not have been announced yet). */
  refresh(): Promise<void>;
};

export class SiteCache {
  private byId = new Map<string, Site>();
  private byPublic = new Map<string, Site>();
  /** Bumped by every change, so a full reload read before a change does not undo it (replaceAll). */
  generation = 0;
  changes: SiteChanges | undefined;

  /** A created or patched site: known to the others first, then served from here. */
  async record(site: Site): Promise<Site> {
    await this.changes?.recorded(site);
    this.put(site);
    return site;
  }

  async announce(tx: MetaTx, siteId: string): Promise<void> {
    await this.changes?.announce(tx, siteId);
  }

  /**
   * inOrg, and on a miss with a shared store, again after reading it: a site created on another node is
   * found at once, not only when its notification has arrived. Only callers that are authenticated (and
   * rate-limited) ask, so misses cannot be sent in bulk for free.
   */
  async inOrgShared(orgId: string, idOrPublicId: string): Promise<Site | undefined> {
    const hit = this.inOrg(orgId, idOrPublicId);
    if (hit || !this.changes) return hit;
    await this.changes.refresh();
    return this.inOrg(orgId, idOrPublicId);
  }

  /** The whole list, as read when the cache's generation was `generation`; false (unchanged) if it moved on since. */
  replaceAll(sites: Site[], generation: number): boolean {
    if (generation !== this.generation) return false;
    const live = new Set(sites.map((s) => s.id));
    for (const id of [...this.byId.keys()]) if (!live.has(id)) this.remove(id);
    for (const s of sites) this.put(s);
    return true;
  }

  static async load(db: MetaDb): Promise<SiteCache> {
    const cache = new SiteCache();
    for (const s of await db.query<Site>(`SELECT ${SITE_COLUMNS} FROM sites`)) cache.put(s);
    return cache;
  }

  put(site: Site) {
    this.remove(site.id);
    this.generation++;
    this.byId.set(site.id, site);
    this.byPublic.set(site.public_id, site);
  }

  remove(id: string) {
    this.generation++;
    const old = this.byId.get(id);
    if (!old) return;
    this.byId.delete(id);
    this.byPublic.delete(old.public_id);
  }

  byPublicId(publicId: string): Site | undefined {
    return this.byPublic.get(publicId);
  }

  /** A site of this organization addressed by its id or its public id (contract §3). */
  inOrg(orgId: string, idOrPublicId: string): Site | undefined {
    // Every id is lowercase hex when stored; clients may send UUIDs upper-cased.
    const id = idOrPublicId.toLowerCase();
    const s = this.byId.get(id) ?? this.byPublic.get(id);
    return s && s.org_id === orgId.toLowerCase() ? s : undefined;
  }

  ofOrg(orgId: string): Site[] {
    return [...this.byId.values()].filter((s) => s.org_id === orgId).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }
}
