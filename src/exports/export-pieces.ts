// The pieces every export format is written from: the export's SELECT over a window of the site's rows, and one
// COPY of it to a file under DATA_DIR/exports, opened and unlinked at once. Shared by the text formats
// (export-service.ts) and the Parquet assembly (export-parquet.ts).
import { mkdirSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { CSV_COPY_OPTIONS } from '../http/csv.ts';
import { readOptions, sqlPath, TIME_COL, type ParquetManifest } from '../storage/parquet-layout.ts';
import { consistentRead } from '../storage/snapshot.ts';
import { EXPORT_COLUMNS, selectItem, type ExportFormat } from './columns.ts';
import type { ExportQuery } from './model.ts';

const COPY_OPTIONS: Record<ExportFormat, string> = {
  // LZ4 (LZ4_RAW), as the stored files whose column chunks a Parquet export copies (export-parquet.ts), so
  // the whole file has one codec.
  parquet: 'FORMAT parquet, COMPRESSION lz4',
  csv: CSV_COPY_OPTIONS,
  ndjson: 'FORMAT json',
};
export const exportDir = (dataDir: string) => join(dataDir, 'exports');


export type Window = { fromUtc: string; toUtc: string };

/**
 * The export's SELECT over `window`, reading `files` (absolute paths) and the hot table. COPY takes no
 * parameters, so every value is spliced, and each is ours: the site id (a UUID from the site cache), ISO
 * instants computed from validated dates, registered file paths.
 */
export function selectSql(site: Site, q: ExportQuery, window: Window | undefined, files: string[], withHot = true): string {
  const col = TIME_COL[q.table];
  const where = window ? ` AND ${col} >= '${window.fromUtc}'::TIMESTAMP AND ${col} < '${window.toUtc}'::TIMESTAMP` : '';
  const hot = `SELECT * FROM ${q.table} WHERE site_id = '${site.id}'${where}${withHot ? '' : ' AND false'}`;
  // Files first (as registered), then the open visits of the hot table.
  const source = files.length
    ? `(SELECT * FROM read_parquet([${files.map(sqlPath).join(', ')}], hive_partitioning = false${readOptions(q.table)}) WHERE true${where} UNION ALL BY NAME ${hot})`
    : `(${hot})`;
  return `SELECT ${EXPORT_COLUMNS[q.table].map((c) => selectItem(c, q.format)).join(', ')} FROM ${source}`;
}

/** The export's SELECT over `window` from a file list (and the hot table of the same state). */
export const windowSql = (site: Site, q: ExportQuery, window: Window | undefined) =>
  (files: ParquetManifest) => selectSql(site, q, window, files.files(q.table, site.id, window));

/**
 * Writes one piece and opens it; the file is unlinked once open (gone when its descriptor closes). A piece of
 * stored rows builds its `sql` from the file list of the state its COPY reads (consistentRead): a compaction
 * that moves hot rows to a new file meanwhile leaves each row in the piece once, and no file it lists is deleted
 * while it runs. A string reads what it names (one stored file the caller keeps on disk).
 */
export async function writePiece(ctx: AppContext, sql: string | ((files: ParquetManifest) => string), format: ExportFormat, header: boolean, options?: string): Promise<FileHandle> {
  const dir = exportDir(ctx.config.dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${crypto.randomUUID()}.${format}`);
  const delay = ctx.config.testStatementDelayMs;
  try {
    options ??= format === 'csv' && !header ? COPY_OPTIONS.csv.replace('HEADER true', 'HEADER false') : COPY_OPTIONS[format];
    const copy = (text: string) => `COPY (${text}) TO ${sqlPath(path)} (${options})`;
    if (typeof sql === 'string') await ctx.db.exec(copy(sql));
    // Answered again (the same path, overwritten) when a publication crossed the first COPY.
    else await consistentRead(ctx.db, ctx.parquet, async (files, reader) => {
      const text = sql(files);
      // Test hook (TERN_TEST_STATEMENT_DELAY_MS): lets a publication fall between listing the files and the COPY.
      if (delay) await new Promise((r) => setTimeout(r, delay));
      await reader.query(copy(text));
    });
    return await open(path, 'r');
  } finally {
    rmSync(path, { force: true });
  }
}

