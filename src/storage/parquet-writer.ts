// Writes rows of one site and month to a new Parquet file (sorted by time), makes it durable and registers
// it in parquet_files, inside a transaction that publishes the files to the manifest once it commits and
// removes them if it fails (writingFiles).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Tx } from './database.ts';
import { frag, sql, type Fragment } from './sql.ts';
import { syncDir, syncFile } from './durable-file.ts';
import { ensureDir, partitionDir, sqlPath, TIME_COL, type ParquetFile, type ParquetManifest, type Table } from './parquet-layout.ts';

/**
 * Every file is LZ4: it writes as fast as snappy and reads fastest of the compressed codecs, which is what
 * analytics pay for on every query. Measured on the 10M-event bench files (2 cores), reading the six
 * columns a funnel needs: zstd 270–320 ms, snappy 190–200, LZ4 165–170, uncompressed 105 (but 2.4× the
 * disk); on disk LZ4 takes 366 MB where zstd took 261 MB.
 * Per stored event on the 1M-event bench store (bench/parquet-options.ts, bench/out/): events 45.9 bytes,
 * visits 14.7. Kept at Parquet format version 1: version 2 (delta-encoded integers) saves 2.4 bytes on visits but
 * makes events 5% larger (the random 64-bit visit and visitor hashes take more room delta-packed than plain under
 * LZ4) and a 12-month device breakdown's visits scan 11% slower (81 → 91 ms). zstd level 3 takes events to
 * 32.4 bytes but the 12-month pages scan 2.5× as long (73 → 187 ms).
 */
const FORMAT: Record<Table, string> = { events: 'COMPRESSION lz4', visits: 'COMPRESSION lz4' };

/** The COPY … TO options of every file of `tbl` the server writes. */
export const parquetOptions = (tbl: Table, rowGroup: number) => `FORMAT parquet, ${FORMAT[tbl]}, ROW_GROUP_SIZE ${rowGroup}`;

/** What the registry records of a file, known from the rows written (the file is not read back). */
export type FileStats = { rows: number; min_ts: string; max_ts: string };

/**
 * Runs `fn` in one transaction with the list its writes append to: the files become visible to queries
 * once the transaction commits, and are deleted if it fails (they would be unregistered orphans). The commit
 * publishes (Database.transaction): the new files, and whatever `publish` changes of the manifest (the files
 * they replace), appear to queries in the same step as the transaction's rows.
 */
export async function writingFiles<T>(db: Database, manifest: ParquetManifest, fn: (tx: Tx, written: ParquetFile[]) => Promise<T>,
  publish?: (out: T) => void): Promise<T> {
  const written: ParquetFile[] = [];
  try {
    return await db.transaction((tx) => fn(tx, written), (out) => {
      for (const f of written) manifest.add(f);
      publish?.(out);
    });
  } catch (e) {
    for (const f of written) rmSync(manifest.abs(f.path), { force: true });
    throw e;
  }
}

/** Row groups of files written in arrival order: the writer then holds one small group in memory at a time. */
const ARRIVAL_ROW_GROUP = 20_480;
/**
 * Rows per row group of merged and sorted files (every stored file but the loader's small ones): a quarter of
 * DuckDB's default (122,880), because erasing a visitor re-encodes every row group holding one of their rows
 * (erase-rewrite.ts) and a busy visitor has rows in most of a year's groups. On the 10M-event bench store the
 * most active visitor's erasure re-encoded 1.96M rows instead of 6.15M (server CPU 12.8 → 6.5 s) while the
 * reports and /query answered in the same time (bench/erase.ts --row-group, bench/parquet-options.ts
 * --row-group-before; docs/benchmarks.md); at 16,384 rows the 90-day filtered pages report took ~2×.
 */
export const FULL_ROW_GROUP = 30_720;

export type WriteOptions = {
  /**
   * The rows already come about in time order (the log's events, in the order they were accepted): they are
   * written as they stream, without a sort that would hold the whole file in memory (a 100k-event load peaked
   * ~170 MB higher sorted), in small row groups.
   */
  inArrivalOrder?: boolean;
  /** The rows come in time order (files of successive time ranges, read in order): streamed, in full row groups. */
  presorted?: boolean;
  /** false only for migration 0007, which runs before file_engagement exists. */
  rollup?: boolean;
};

/**
 * `select` yields the rows (its values bound); the file's path is spliced into COPY … TO, which takes no
 * parameter for it, so site id and month are checked by partitionDir first.
 * An events file gets its file_engagement rows, summed from `select` again (for the loader, rows still in
 * memory, rather than reading the new file back).
 */
export async function writePartition(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], tbl: Table, siteId: string, month: string,
  select: string | Fragment, stats: FileStats, opts: WriteOptions = {}): Promise<ParquetFile> {
  const rows = typeof select === 'string' ? frag(select) : select;
  const at = newFilePath(manifest, tbl, siteId, month);
  const f: ParquetFile = { path: manifest.rel(at.abs), tbl, site_id: siteId, month, ...stats };
  written.push(f);
  await writeFile((sql, params) => tx.exec(sql, params), at, tbl, rows, opts);
  await registerFile(tx, f, rows, opts.rollup !== false);
  return f;
}

/**
 * Writes `rows` of `tbl` to the new file `at` (newFilePath) with the options above, durably; `exec` runs the COPY
 * (in the caller's transaction, or on its own beside the writers' queue: compaction-merge.ts). Not registered.
 */
export async function writeFile(exec: (sql: string, params: Fragment['params']) => Promise<void>, at: { abs: string; dir: string }, tbl: Table,
  rows: Fragment, opts: Pick<WriteOptions, 'inArrivalOrder' | 'presorted'> = {}) {
  await exec(`COPY (${rows.sql}${opts.inArrivalOrder || opts.presorted ? '' : ` ORDER BY ${TIME_COL[tbl]}`}) TO ${sqlPath(at.abs)} (${parquetOptions(tbl, opts.inArrivalOrder ? ARRIVAL_ROW_GROUP : FULL_ROW_GROUP)})`, rows.params);
  await syncFile(at.abs);
  await syncDir(at.dir);
}

/** Where a new file of the site and month goes (its directory made); the name is new, so nothing is overwritten. */
export function newFilePath(manifest: ParquetManifest, tbl: Table, siteId: string, month: string): { abs: string; dir: string } {
  const dir = partitionDir(manifest.dataDir, tbl, siteId, month);
  ensureDir(dir);
  return { abs: join(dir, `${crypto.randomUUID()}.parquet`), dir };
}

/**
 * Registers the written file `f` in parquet_files, in the caller's transaction; an events file gets its
 * file_engagement rows, summed from `rows` (the file's rows; bound values in its params).
 */
export async function registerFile(tx: Tx, f: ParquetFile, rows: Fragment, rollup = true) {
  await tx.exec('INSERT INTO parquet_files VALUES (?, ?, ?, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, now()::TIMESTAMP)', [f.path, f.tbl, f.site_id, f.month, f.rows, f.min_ts, f.max_ts]);
  if (f.tbl === 'events' && rollup) {
    await tx.exec(`INSERT INTO file_engagement
      SELECT ?, ?, ts::DATE, engaged_path, engaged_hostname, coalesce(sum(time_on_page), 0), count(time_on_page), coalesce(sum(scroll_depth), 0), count(scroll_depth)
      FROM (${rows.sql}) WHERE time_on_page IS NOT NULL OR scroll_depth IS NOT NULL GROUP BY ALL`, [f.path, f.site_id, ...rows.params]);
  }
}

/** Takes files out of the registry (and their rollups) in the caller's transaction; the caller removes them from the manifest. */
export async function unregister(tx: Tx, paths: string[]) {
  if (!paths.length) return;
  await tx.exec('DELETE FROM parquet_files WHERE path = ANY(?::VARCHAR[])', [paths]);
  await tx.exec('DELETE FROM file_engagement WHERE file = ANY(?::VARCHAR[])', [paths]);
}

/**
 * Writes `relation`'s rows of `tbl` as one file per site and month, appended to `written`.
 */
export async function writePartitions(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], tbl: Table, relation: string,
  opts: { columns?: string; inArrivalOrder?: boolean } = {}): Promise<ParquetFile[]> {
  const col = TIME_COL[tbl];
  const month = `strftime(${col}, '%Y-%m')`;
  const parts = await tx.query<FileStats & { site_id: string; month: string }>(
    `SELECT site_id, ${month} AS month, count(*) AS rows, min(${col})::VARCHAR AS min_ts, max(${col})::VARCHAR AS max_ts FROM ${relation} GROUP BY ALL`,
  );
  const out: ParquetFile[] = [];
  for (const { site_id, month: m, ...stats } of parts) {
    const select = sql`SELECT ${frag(opts.columns ?? '*')} FROM ${frag(relation)} WHERE site_id = ${site_id} AND ${frag(month)} = ${m}`;
    out.push(await writePartition(tx, manifest, written, tbl, site_id, m, select, stats, { inArrivalOrder: opts.inArrivalOrder }));
  }
  return out;
}
