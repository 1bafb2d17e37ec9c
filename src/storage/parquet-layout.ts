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

/** A listed file with its time span parsed once, not on every query that consults the manifest. */
type Entry = ParquetFile & { minMs: number; maxMs: number };

export class ParquetManifest {
  private bySite = new Map<string, Entry[]>();
  private listeners = new Set<() => void>();

  constructor(readonly dataDir: string) {}

  /** Loads the registry; files on disk that it does not list are orphans of an interrupted compaction. */
  async load(db: Database) {
    const rows = await db.query<ParquetFile>(
      `SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files`,
    );
    this.bySite.clear();
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

  private changed() { for (const fn of this.listeners) fn(); }

  add(f: ParquetFile) {
    this.changed();
    const list = this.bySite.get(f.site_id) ?? [];
    list.push({ ...f, minMs: Date.parse(norm(f.min_ts)), maxMs: Date.parse(norm(f.max_ts)) });
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
