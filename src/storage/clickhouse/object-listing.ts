// The Parquet files another reader may use in object storage: the object mirror's manifest.json (exactly the
// files registered and uploaded; an object it stops listing stays STORAGE_DELETE_GRACE_SECONDS longer), read
// again every few seconds. ClickHouse reads the listed objects with s3() (CLICKHOUSE_READ=objects), so any node
// with the bucket answers from the same files; a listing is never of an object that is gone.
import type { ObjectStore } from '../object-store.ts';
import { MANIFEST_KEY } from '../object-mirror.ts';
import type { Table } from '../parquet-layout.ts';
import { log } from '../../log.ts';

/** Well inside the mirror's delete grace (60 s by default), so a listed object is still there when read. */
const REFRESH_MS = 2_000;

type Listed = { key: string; table: Table; site_id: string; min_ts: string; max_ts: string };
type Entry = Listed & { minMs: number; maxMs: number };

const ms = (ts: string) => Date.parse(/[zZ]$/.test(ts) ? ts : `${ts.replace(' ', 'T')}Z`);

export class ObjectListing {
  private bySite = new Map<string, Entry[]>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(readonly store: ObjectStore) {}

  async start() {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch((e) => log.warn('reading the object manifest failed', { error: String(e?.message ?? e) })), REFRESH_MS);
  }

  stop() { clearInterval(this.timer); }

  /** Reads manifest.json again (one read at a time); a store without one lists nothing yet. */
  refresh(): Promise<void> {
    return (this.refreshing ??= (async () => {
      try {
        const bytes = await this.store.get(MANIFEST_KEY);
        const files: Listed[] = bytes ? JSON.parse(new TextDecoder().decode(bytes)).files : [];
        const next = new Map<string, Entry[]>();
        for (const f of files) next.set(f.site_id, [...(next.get(f.site_id) ?? []), { ...f, minMs: ms(f.min_ts), maxMs: ms(f.max_ts) }]);
        this.bySite = next;
      } finally {
        this.refreshing = undefined;
      }
    })());
  }

  /** URLs of a site's listed files of `tbl` whose time span overlaps [fromUtc, toUtc). */
  urls(tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): string[] {
    const [from, to] = range ? [ms(range.fromUtc), ms(range.toUtc)] : [-Infinity, Infinity];
    return (this.bySite.get(siteId) ?? []).filter((f) => f.table === tbl && f.maxMs >= from && f.minMs < to).map((f) => this.store.objectUrl(f.key));
  }

  get credentials() { return { accessKeyId: this.store.opts.accessKeyId, secretAccessKey: this.store.opts.secretAccessKey }; }
}
