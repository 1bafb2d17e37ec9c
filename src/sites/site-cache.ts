// Every site in memory, by id and by public id: ingestion and auth resolve sites without a query.
import type { Database } from '../storage/database.ts';
import type { Site } from './model.ts';

export const SITE_COLUMNS = `id::VARCHAR AS id, org_id::VARCHAR AS org_id, public_id, domain, name, timezone, currency, created_at, retention_months`;

export class SiteCache {
  private byId = new Map<string, Site>();
  private byPublic = new Map<string, Site>();

  static async load(db: Database): Promise<SiteCache> {
    const cache = new SiteCache();
    for (const s of await db.query<Site>(`SELECT ${SITE_COLUMNS} FROM sites`)) cache.put(s);
    return cache;
  }

  put(site: Site) {
    this.remove(site.id);
    this.byId.set(site.id, site);
    this.byPublic.set(site.public_id, site);
  }

  remove(id: string) {
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
