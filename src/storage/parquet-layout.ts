// Where events and closed visits live on disk (parquet/<table>/site=<id>/month=<YYYY-MM>/<uuid>.parquet) and
// the in-memory manifest of those files, mirrored from the parquet_files table, that tableSource() reads
// (one per server, in the app context).
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Database } from './database.ts';
import { log } from '../log.ts';

export type Table = 'events' | 'visits';
/** The time column each table is sorted, partitioned and range-filtered on. */
export const TIME_COL: Record<Table, string> = { events: 'ts', visits: 'start_ts' };
export type ParquetFile = { path: string; tbl: Table; site_id: string; month: string; rows: number; min_ts: string; max_ts: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MONTH = /^\d{4}-\d{2}$/;

/** Paths are spliced into COPY statements (which take no parameters), so every part is checked first. */
export function partitionDir(dataDir: string, tbl: Table, siteId: string, month: string): string {
  if (!UUID.test(siteId) || !MONTH.test(month) || (tbl !== 'events' && tbl !== 'visits')) throw new Error(`bad partition ${tbl}/${siteId}/${month}`);
  return join(parquetRoot(dataDir), tbl, `site=${siteId}`, `month=${month}`);
}

export const parquetRoot = (dataDir: string) => join(dataDir, 'parquet');

/** A single-quoted SQL string literal of one of our own paths. */
export const sqlPath = (p: string) => `'${p.replaceAll("'", "''")}'`;

/**
 * read_parquet's options for several files of `tbl` at once. Visit files from before migration 0016 lack its marks per
 * value (value-marks.ts) until compaction fills them: read by name, they read as NULL there (read_parquet otherwise
 * takes the first file's columns).
 */
export const readOptions = (tbl: Table) => (tbl === 'visits' ? ', union_by_name = true' : '');

/** A listed file with its time span parsed once, not on every query that consults the manifest. */
type Entry = ParquetFile & { minMs: number; maxMs: number };

export class ParquetManifest {
  private bySite = new Map<string, Entry[]>();
  private listeners = new Set<() => void>();
  /** Bumped by every change of the list: a view records the one it copies. */
  private version = 0;
  /** The copy handed to views of the current version (made on the first view() after a change). */
  private current: ParquetManifest | undefined;
  /** Open views per version, and deletions waiting for the views older than their version to close. */
  private open = new Map<number, number>();
  private waiting: { version: number; fn: () => void }[] = [];
  private frozen = false;

  constructor(readonly dataDir: string) {}

  /**
   * The file list as it is now, unchanged by later publications: a query plans from it, and storage/snapshot.ts
   * makes its statements read the hot tables of the same state. Lists are replaced, never
   * edited in place, so a view shares them and copies only the map of sites, once per version. `release` when
   * the query is done: files retired since stay on disk until every view that may list them is released.
   */
  view(): { files: ParquetManifest; release(): void } {
    if (!this.current) {
      this.current = new ParquetManifest(this.dataDir);
      this.current.bySite = new Map(this.bySite);
      this.current.frozen = true;
    }
    const version = this.version;
    this.open.set(version, (this.open.get(version) ?? 0) + 1);
    let released = false;
    return {
      files: this.current,
      release: () => {
        if (released) return;
        released = true;
        const n = this.open.get(version)! - 1;
        if (n) this.open.set(version, n);
        else this.open.delete(version);
        this.runWaiting();
      },
    };
  }

  /** A point after the changes made so far: files retired until now may be listed by views older than it. */
  mark(): number { return this.version; }

  /** `fn` (deleting retired files) runs once no view older than `mark` is open: at once when none is. */
  afterViewsBefore(mark: number, fn: () => void) {
    this.waiting.push({ version: mark, fn });
    this.runWaiting();
  }

  private runWaiting() {
    if (!this.waiting.length) return;
    const oldest = this.open.size ? Math.min(...this.open.keys()) : Infinity;
    const due = this.waiting.filter((w) => w.version <= oldest);
    if (!due.length) return;
    this.waiting = this.waiting.filter((w) => w.version > oldest);
    for (const w of due) w.fn();
  }

  /** Loads the registry; files on disk that it does not list are orphans of an interrupted compaction. */
  async load(db: Database) {
    const rows = await db.query<ParquetFile>(
      `SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files`,
    );
    this.bySite = new Map();
    this.current = undefined;
    const known = new Set<string>();
    for (const f of rows) {
      const abs = this.abs(f.path);
      if (!existsSync(abs)) {
        log.error('parquet file listed but missing; its rows are unreadable', { path: f.path });
        continue;
      }
      known.add(abs);
      this.add(f);
    }
    for (const file of walk(parquetRoot(this.dataDir))) {
      if (!known.has(file)) {
        log.warn('removing orphan parquet file', { path: relative(this.dataDir, file) });
        rmSync(file, { force: true });
      }
    }
  }

  /** Paths in parquet_files are relative to DATA_DIR, so a data directory can be moved. */
  abs(rel: string) { return join(this.dataDir, rel); }
  rel(abs: string) { return relative(this.dataDir, abs); }

  /** `fn` runs after every change of the listed files (the object mirror's cue); returns an unsubscribe. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed() {
    if (this.frozen) throw new Error('a view of the Parquet manifest does not change');
    this.version++;
    this.current = undefined;
    for (const fn of this.listeners) fn();
  }

  add(f: ParquetFile) {
    this.changed();
    // A new list, not a push: views of earlier versions share the old one.
    const list = [...(this.bySite.get(f.site_id) ?? []), { ...f, minMs: Date.parse(norm(f.min_ts)), maxMs: Date.parse(norm(f.max_ts)) }];
    this.bySite.set(f.site_id, list);
  }

  remove(paths: string[]) {
    this.changed();
    const gone = new Set(paths);
    for (const [site, list] of this.bySite) this.bySite.set(site, list.filter((f) => !gone.has(f.path)));
  }

  dropSite(siteId: string) {
    this.changed();
    this.bySite.delete(siteId);
  }

  /** Absolute paths of a site's files of `tbl` whose time span overlaps [fromUtc, toUtc). */
  files(tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): string[] {
    return this.overlapping(tbl, siteId, range).map((f) => this.abs(f.path));
  }

  /** The overlapping files' registry paths, split into those wholly inside the range and the rest. */
  split(tbl: Table, siteId: string, range: { fromUtc: string; toUtc: string }): { inside: string[]; edges: string[] } {
    const [from, to] = [Date.parse(norm(range.fromUtc)), Date.parse(norm(range.toUtc))];
    const files = this.overlapping(tbl, siteId, range);
    const isInside = (f: Entry) => f.minMs >= from && f.maxMs < to;
    return { inside: files.filter(isInside).map((f) => f.path), edges: files.filter((f) => !isInside(f)).map((f) => f.path) };
  }

  private overlapping(tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): Entry[] {
    const list = this.bySite.get(siteId) ?? [];
    if (!range) return list.filter((f) => f.tbl === tbl);
    const [from, to] = [Date.parse(norm(range.fromUtc)), Date.parse(norm(range.toUtc))];
    return list.filter((f) => f.tbl === tbl && f.maxMs >= from && f.minMs < to);
  }

  all(tbl: Table, siteId: string, month: string): ParquetFile[] {
    return (this.bySite.get(siteId) ?? []).filter((f) => f.tbl === tbl && f.month === month);
  }

  months(tbl: Table, siteId: string): string[] {
    return [...new Set((this.bySite.get(siteId) ?? []).filter((f) => f.tbl === tbl).map((f) => f.month))];
  }

  sites(): string[] { return [...this.bySite.keys()]; }
}

/** DuckDB prints 'YYYY-MM-DD HH:MM:SS[.fff]'; callers may pass ISO with or without Z. Both are UTC. */
function norm(ts: string): string {
  const s = ts.includes('T') ? ts : ts.replace(' ', 'T');
  return /[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`;
}

function* walk(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}

export function ensureDir(dir: string) { mkdirSync(dir, { recursive: true }); }
