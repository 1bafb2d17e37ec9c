// With DATABASE_URL: keeps this node's site cache and its DuckDB `sites` table (which the loader and retention
// read beside the events) in step with PostgreSQL's sites, and finishes the deletion of sites deleted anywhere.
import type { Database } from '../storage/database.ts';
import type { PostgresDatabase } from '../storage/postgres.ts';
import type { MetaTx } from '../storage/meta-db.ts';
import { SerialByKey, type Serial } from '../storage/serial.ts';
import { SITE_COLUMNS, type SiteCache } from './site-cache.ts';
import { dropStoredSite, type DropSite } from './service.ts';
import type { Site } from './model.ts';
import { log } from '../log.ts';

/** NOTIFY channel: a site was created, patched or deleted on some node (payload: its id). */
const CHANNEL = 'tern_sites';
/** A full reload however quiet the channel: catches a notification lost while a listener reconnected. */
const RESYNC_MS = 30_000;

/** The columns a node's copy must follow (id, org and created_at never change). */
const changed = (a: Site | undefined, b: Site) =>
  !a || a.public_id !== b.public_id || a.domain !== b.domain || a.name !== b.name || a.timezone !== b.timezone || a.currency !== b.currency || a.retention_months !== b.retention_months;

export class SiteMirror {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /**
   * Copies of one site one at a time: a create's own copy and a reload started by another change can both
   * insert a new site's row, and two DuckDB transactions inserting one key at once fail one of them (a 500).
   */
  private copies = new SerialByKey();

  constructor(
    private meta: PostgresDatabase,
    private db: Database,
    private cache: SiteCache,
    private analyticsWrites: Serial,
    private dropSite: DropSite,
  ) {}

  /** Hooks the cache, reloads everything once, then follows NOTIFY (and a slow timer). */
  async start(): Promise<void> {
    this.cache.changes = {
      recorded: async (site) => {
        await this.copy(site);
        await this.meta.exec('SELECT pg_notify(?, ?)', [CHANNEL, site.id]);
      },
      announce: (tx: MetaTx, siteId: string) => tx.exec('SELECT pg_notify(?, ?)', [CHANNEL, siteId]),
      refresh: () => this.schedule(),
    };
    await this.sync();
    // On every (re)connection of the listener, too: what changed while it was away is read again.
    await this.meta.listen(CHANNEL, () => this.schedule(), () => this.schedule());
    this.timer = setInterval(() => this.schedule(), RESYNC_MS);
    (this.timer as any).unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One reload at a time; notifications arriving during one make one more. */
  schedule(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.sync().catch((e) => log.error('site sync with PostgreSQL failed; retrying', { error: String((e as Error)?.message ?? e) }));
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * PostgreSQL's sites → the cache and the DuckDB copy; a copied site PostgreSQL no longer has was deleted
   * (here or on another node): its stored rows go now, and its copy with them, in one DuckDB transaction.
   */
  async sync(): Promise<void> {
    const generation = this.cache.generation;
    const live = await this.meta.query<Site>(`SELECT ${SITE_COLUMNS} FROM sites`);
    const copies = new Map((await this.db.query<Site>(`SELECT ${SITE_COLUMNS} FROM sites`)).map((s) => [s.id, s]));
    for (const s of live) if (changed(copies.get(s.id), s)) await this.copy(s);
    // A local create or delete since the read above is newer than it: the next round settles the cache.
    if (!this.cache.replaceAll(live, generation)) this.again = true;
    const ids = new Set(live.map((s) => s.id));
    for (const id of copies.keys()) {
      if (ids.has(id)) continue;
      this.cache.remove(id);
      await dropStoredSite(this.db, this.analyticsWrites, this.dropSite, id);
      log.info('deleted site dropped from this node', { site: id });
    }
  }

  /** The site's row in DuckDB, so the loader keeps its events and retention sees its setting. */
  private copy(s: Site): Promise<void> {
    return this.copies.run(s.id, () => this.db.exec(
      `INSERT INTO sites (id, org_id, public_id, domain, name, timezone, currency, created_at, retention_months)
       VALUES (?::UUID, ?::UUID, ?, ?, ?, ?, ?, ?::TIMESTAMPTZ::TIMESTAMP, ?::INTEGER)
       ON CONFLICT (id) DO UPDATE SET domain = excluded.domain, name = excluded.name, timezone = excluded.timezone,
         currency = excluded.currency, retention_months = excluded.retention_months`,
      [s.id, s.org_id, s.public_id, s.domain, s.name, s.timezone, s.currency, s.created_at, s.retention_months ?? null],
    ));
  }
}
