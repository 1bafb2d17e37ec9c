// Mirrors the registered Parquet files into an object store (STORAGE_URL): uploads every file of
// parquet_files that object_uploads does not list, publishes manifest.json listing exactly the files that are
// both registered and uploaded, and deletes every object whose file left parquet_files once the manifest has
// not listed it for STORAGE_DELETE_GRACE_SECONDS. No writer of Parquet files knows about it (ingestion never
// waits for the store): the two tables' difference is the work to do, so a crash anywhere leaves
// it to do again (uploads and deletes are idempotent) and turning STORAGE_URL on uploads what exists.
import type { Database } from './database.ts';
import type { ParquetManifest } from './parquet-layout.ts';
import type { ObjectStore } from './object-store.ts';
import { pausePoint } from './pause-point.ts';
import { log } from '../log.ts';
import { Rounds } from './rounds.ts';
import { inParallel } from './limiter.ts';

/** Changes are gathered this long before a round: a burst of loads and a merge go up in one round. */
const DEBOUNCE_MS = 250;
/** Uploads in flight at once. */
const UPLOADS_AT_ONCE = 4;
/** Rounds also run this often without a change (a file whose upload was refused by a store that came back). */
const POLL_MS = 60_000;

/** The bucket key of a registered path ('parquet/events/site=…/month=…/x.parquet' → 'events/site=…/…'). */
export const objectKey = (path: string) => path.replace(/^parquet\//, '');
export const MANIFEST_KEY = 'manifest.json';

type Registered = { path: string; tbl: string; site_id: string; month: string; rows: number; min_ts: string; max_ts: string };

export class ObjectMirror {
  private readonly rounds = new Rounds(() => this.round(), { what: 'object storage round', debounceMs: DEBOUNCE_MS, pollMs: POLL_MS });
  private published = false;
  private abort = new AbortController();
  private unsubscribe: (() => void) | undefined;
  private readonly id: string;
  /** Unregistered files still in the bucket, and when the first manifest without them was published. */
  private unlisted = new Map<string, number>();

  constructor(private db: Database, private manifest: ParquetManifest, private store: ObjectStore, private opts: { deleteGraceMs: number }) {
    this.id = store.describe();
  }

  async start() {
    // Rows of another store (STORAGE_URL changed) say nothing of this one: its files are all uploaded again.
    await this.db.exec('DELETE FROM object_uploads WHERE store <> ?', [this.id]);
    this.unsubscribe = this.manifest.onChange(() => this.kick());
    log.info('mirroring parquet files to object storage', { store: this.id });
    this.rounds.start();
  }

  async stop() {
    this.unsubscribe?.();
    this.abort.abort();
    await this.rounds.stop();
  }

  /** Something changed: a round soon, unless one is waiting out a failure (the store is down). */
  kick() {
    this.rounds.kick();
  }

  /**
   * Uploads, then the manifest, then deletes: an object leaves the bucket only once no manifest lists it.
   * Returns when the next object's grace ends (a round is due then).
   */
  private async round(): Promise<number | undefined> {
    const signal = this.abort.signal;
    const puts = await this.db.query<{ path: string }>(
      `SELECT p.path FROM parquet_files p ANTI JOIN (SELECT path FROM object_uploads WHERE store = ?) u USING (path) ORDER BY p.created_at, p.path`, [this.id]);
    let uploaded = 0;
    const upload = async (path: string) => {
      try {
        await this.store.putFile(objectKey(path), this.manifest.abs(path), signal);
      } catch (e) {
        if ((e as NodeJS.ErrnoException)?.code !== 'ENOENT') throw e;
        // Unregistered (and deleted) since it was listed: nothing to upload. Still listed: unreadable (see load()).
        if (await this.db.one('SELECT 1 AS x FROM parquet_files WHERE path = ?', [path])) log.error('registered parquet file missing; not uploaded', { path });
        return;
      }
      await pausePoint('mirror:after-upload');
      await this.db.exec('INSERT INTO object_uploads VALUES (?, ?, now()::TIMESTAMP) ON CONFLICT DO NOTHING', [this.id, path]);
      uploaded++;
    };
    // A few at a time: a backfill (STORAGE_URL turned on for an existing DATA_DIR) is bound by round trips, not bandwidth.
    await inParallel(puts.map((p) => p.path), UPLOADS_AT_ONCE, async (path) => { if (!signal.aborted) await upload(path); });
    if (signal.aborted) return;
    // Listed before the manifest is read: a path, once unregistered, never comes back, so the manifest cannot list these.
    const gone = (await this.db.query<{ path: string }>(
      `SELECT u.path FROM object_uploads u ANTI JOIN parquet_files p USING (path) WHERE u.store = ?`, [this.id])).map((r) => r.path);
    const fresh = gone.filter((p) => !this.unlisted.has(p));
    if (uploaded || fresh.length || !this.published) {
      await this.publish(signal);
      const at = Date.now();
      for (const p of fresh) this.unlisted.set(p, at);
    }
    // An object stays DELETE_GRACE after the first manifest without it, for readers of the one before.
    const now = Date.now();
    const due = gone.filter((p) => now - this.unlisted.get(p)! >= this.opts.deleteGraceMs);
    for (const path of due) {
      if (signal.aborted) return;
      await this.store.delete(objectKey(path), signal);
      await this.db.exec('DELETE FROM object_uploads WHERE store = ? AND path = ?', [this.id, path]);
      this.unlisted.delete(path);
    }
    const waiting = gone.filter((p) => this.unlisted.has(p)).map((p) => this.unlisted.get(p)! + this.opts.deleteGraceMs - now);
    const nextInMs = waiting.length ? Math.max(0, Math.min(...waiting)) : undefined;
    if (uploaded || due.length) log.info('object storage synced', { uploaded, deleted: due.length, deletingLater: waiting.length });
    return nextInMs;
  }

  private async publish(signal: AbortSignal) {
    const files = await this.db.query<Registered>(
      `SELECT p.path, p.tbl, p.site_id, p.month, p.rows, p.min_ts::VARCHAR AS min_ts, p.max_ts::VARCHAR AS max_ts
       FROM parquet_files p SEMI JOIN (SELECT path FROM object_uploads WHERE store = ?) u USING (path) ORDER BY p.tbl, p.site_id, p.month, p.path`, [this.id]);
    const body = {
      format: 1,
      published_at: new Date().toISOString(),
      files: files.map((f) => ({ key: objectKey(f.path), table: f.tbl, site_id: f.site_id, month: f.month, rows: f.rows, min_ts: f.min_ts, max_ts: f.max_ts })),
    };
    await this.store.putBytes(MANIFEST_KEY, new TextEncoder().encode(JSON.stringify(body)), 'application/json', signal);
    this.published = true;
  }
}
