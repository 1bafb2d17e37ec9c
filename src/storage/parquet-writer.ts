// Writes rows of one site and month to a new Parquet file (sorted by time), makes it durable and registers
// it in parquet_files, all inside the caller's transaction; the caller adds it to the manifest after commit.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Tx } from './database.ts';
import { syncDir, syncFile } from './durable-file.ts';
import { ensureDir, partitionDir, sqlPath, TIME_COL, type ParquetFile, type ParquetManifest, type Table } from './parquet-layout.ts';

/** Files this small are merged again soon (compaction.ts). */
export const SMALL_FILE_ROWS = 500_000;

/** snappy writes twice as fast as zstd; zstd files are about half the size. */
export type Compression = 'snappy' | 'zstd';

/** `select` yields the rows; site id and month are checked by partitionDir, since COPY takes no parameters. */
export async function writePartition(tx: Tx, manifest: ParquetManifest, tbl: Table, siteId: string, month: string, select: string, compression: Compression): Promise<ParquetFile> {
  const dir = partitionDir(manifest.dataDir, tbl, siteId, month);
  ensureDir(dir);
  const abs = join(dir, `${crypto.randomUUID()}.parquet`);
  const col = TIME_COL[tbl];
  try {
    await tx.exec(`COPY (${select} ORDER BY ${col}) TO ${sqlPath(abs)} (FORMAT parquet, COMPRESSION ${compression}, ROW_GROUP_SIZE 122880)`);
    const [s] = await tx.query<{ rows: number; min_ts: string; max_ts: string }>(
      `SELECT count(*) AS rows, min(${col})::VARCHAR AS min_ts, max(${col})::VARCHAR AS max_ts FROM read_parquet(${sqlPath(abs)})`,
    );
    await syncFile(abs);
    await syncDir(dir);
    const f: ParquetFile = { path: manifest.rel(abs), tbl, site_id: siteId, month, rows: s!.rows, min_ts: s!.min_ts, max_ts: s!.max_ts };
    await tx.exec('INSERT INTO parquet_files VALUES (?, ?, ?, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, now()::TIMESTAMP)', [f.path, tbl, siteId, month, f.rows, f.min_ts, f.max_ts]);
    return f;
  } catch (e) {
    rmSync(abs, { force: true });
    throw e;
  }
}

/**
 * Writes `relation`'s rows of `tbl` as one file per site and month. Returns the files; if the transaction
 * later fails the caller removes them (dropFiles), otherwise adds them to the manifest (publishFiles).
 * `quick`: small files (soon merged) are written with snappy; the merge compresses them with zstd.
 */
export async function writePartitions(tx: Tx, manifest: ParquetManifest, tbl: Table, relation: string, opts: { columns?: string; quick?: boolean } = {}): Promise<ParquetFile[]> {
  const month = `strftime(${TIME_COL[tbl]}, '%Y-%m')`;
  const parts = await tx.query<{ site_id: string; month: string; n: number }>(`SELECT site_id, ${month} AS month, count(*) AS n FROM ${relation} GROUP BY ALL`);
  const out: ParquetFile[] = [];
  try {
    for (const p of parts) {
      const compression = opts.quick && p.n < SMALL_FILE_ROWS ? 'snappy' : 'zstd';
      const select = `SELECT ${opts.columns ?? '*'} FROM ${relation} WHERE site_id = '${p.site_id}' AND ${month} = '${p.month}'`;
      out.push(await writePartition(tx, manifest, tbl, p.site_id, p.month, select, compression));
    }
  } catch (e) {
    dropFiles(manifest, out);
    throw e;
  }
  return out;
}

/** After the registering transaction committed: queries see the files from now on. */
export const publishFiles = (manifest: ParquetManifest, files: ParquetFile[]) => { for (const f of files) manifest.add(f); };

/** After the registering transaction failed: its files are orphans. */
export const dropFiles = (manifest: ParquetManifest, files: ParquetFile[]) => { for (const f of files) rmSync(manifest.abs(f.path), { force: true }); };
