// The Parquet files another reader may use in object storage: the object mirror's manifest.json (exactly the
// files registered and uploaded; an object it stops listing stays STORAGE_DELETE_GRACE_SECONDS longer), read
// again every few seconds. ClickHouse reads the listed objects with s3() (CLICKHOUSE_READ=objects), so any node
// with the bucket answers from the same files; a listing is never of an object that is gone. Several nodes each
// write their own prefix (one manifest.json each); STORAGE_READ_PREFIXES names them all, and the listing is the
// union of their manifests (keys never collide: each is under its node's prefix).
import type { ObjectStore } from '../object-store.ts';
import { MANIFEST_KEY } from '../object-mirror.ts';
import type { Table } from '../parquet-layout.ts';
import { log } from '../../log.ts';

/** Well inside the mirror's delete grace (60 s by default), so a listed object is still there when read. */
const REFRESH_MS = 2_000;

type Listed = { key: string; table: Table; site_id: string; min_ts: string; max_ts: string };
type Entry = Listed & { minMs: number; maxMs: number; url: string };

const ms = (ts: string) => Date.parse(/[zZ]$/.test(ts) ? ts : `${ts.replace(' ', 'T')}Z`);

export class ObjectListing {
  private bySite = new Map<string, Entry[]>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private refreshing: Promise<void> | undefined;

  /** `stores`: one per prefix read (this node's first); all in one bucket with one set of credentials. */
  constructor(readonly stores: ObjectStore[]) {}

  get store() { return this.stores[0]!; }

  async start() {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch((e) => log.warn('reading the object manifest failed', { error: String(e?.message ?? e) })), REFRESH_MS);
  }

  stop() { clearInterval(this.timer); }

  /**
   * Reads every prefix's manifest.json again (one round at a time); a prefix without one lists nothing yet. One
   * manifest that cannot be read keeps the whole previous listing: answers never drop a node's files for a moment.
   */
  refresh(): Promise<void> {
    return (this.refreshing ??= (async () => {
      try {
        const manifests = await Promise.all(this.stores.map(async (store) => {
          const bytes = await store.get(MANIFEST_KEY);
          return { store, files: (bytes ? JSON.parse(new TextDecoder().decode(bytes)).files : []) as Listed[] };
        }));
        const next = new Map<string, Entry[]>();
        for (const { store, files } of manifests) {
          for (const f of files) {
            const list = next.get(f.site_id) ?? [];
            list.push({ ...f, minMs: ms(f.min_ts), maxMs: ms(f.max_ts), url: store.objectUrl(f.key) });
            next.set(f.site_id, list);
          }
        }
        this.bySite = next;
      } finally {
        this.refreshing = undefined;
      }
    })());
  }

  /** URLs of a site's listed files of `tbl` whose time span overlaps [fromUtc, toUtc). */
  urls(tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): string[] {
    const [from, to] = range ? [ms(range.fromUtc), ms(range.toUtc)] : [-Infinity, Infinity];
    return (this.bySite.get(siteId) ?? []).filter((f) => f.table === tbl && f.maxMs >= from && f.minMs < to).map((f) => f.url);
  }

  get credentials() { return { accessKeyId: this.store.opts.accessKeyId, secretAccessKey: this.store.opts.secretAccessKey }; }
}
