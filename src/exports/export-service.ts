// Exports a site's events or visits as Parquet, CSV or NDJSON: DuckDB's COPY writes the file to DATA_DIR/exports
// (streamed: it holds a row group, not the result), then the file is streamed to the client and deleted.
// A download runs at the speed DuckDB writes and the disk reads, and the server's memory stays flat.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { badRequest } from '../http/errors.ts';
import { CSV_COPY_OPTIONS } from '../http/csv.ts';
import { isDate, todayIn } from '../query/calendar.ts';
import { dayRange } from '../query/period.ts';
import { sqlPath, TIME_COL } from '../storage/parquet-layout.ts';
import { EXPORT_COLUMNS, selectItem, type ExportFormat } from './columns.ts';
import type { ExportQuery } from './model.ts';

const CONTENT_TYPE: Record<ExportFormat, string> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
};
const COPY_OPTIONS: Record<ExportFormat, string> = {
  // Snappy: every Parquet reader has it, and it writes fastest.
  parquet: 'FORMAT parquet, COMPRESSION snappy',
  csv: CSV_COPY_OPTIONS,
  ndjson: 'FORMAT json',
};
const READ_CHUNK = 1 << 20;

const exportDir = (dataDir: string) => join(dataDir, 'exports');

/** Files of exports cut short by a crash belong to no one: removed at start. */
export function clearExports(dataDir: string) {
  const dir = exportDir(dataDir);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });
}

/** [fromUtc, toUtc) of the query's days, or undefined for everything stored. */
function rangeOf(site: Site, q: ExportQuery) {
  if (!q.from && !q.to) return undefined;
  for (const [name, v] of [['from', q.from], ['to', q.to]] as const) if (v && !isDate(v)) throw badRequest(`Invalid ${name}: expected a calendar date YYYY-MM-DD`);
  const from = q.from ?? '1970-01-01';
  const to = q.to ?? todayIn(site.timezone);
  if (from > to) throw badRequest('from must not be after to');
  return dayRange('custom', from, to, site.timezone);
}

/**
 * The export's SELECT. COPY takes no parameters, so every value is spliced, and each is ours: the site id
 * (a UUID from the site cache), ISO instants computed from validated dates, and registered file paths.
 */
function selectSql(ctx: AppContext, site: Site, q: ExportQuery): string {
  const range = rangeOf(site, q);
  const col = TIME_COL[q.table];
  const where = range ? ` AND ${col} >= '${range.fromUtc}'::TIMESTAMP AND ${col} < '${range.toUtc}'::TIMESTAMP` : '';
  const files = ctx.parquet.files(q.table, site.id, range);
  const hot = `SELECT * FROM ${q.table} WHERE site_id = '${site.id}'${where}`;
  // Files first (oldest first as registered), then the open visits of the hot table.
  const source = files.length
    ? `(SELECT * FROM read_parquet([${files.map(sqlPath).join(', ')}], hive_partitioning = false) WHERE true${where} UNION ALL BY NAME ${hot})`
    : `(${hot})`;
  return `SELECT ${EXPORT_COLUMNS[q.table].map((c) => selectItem(c, q.format)).join(', ')} FROM ${source}`;
}

export type ExportFile = { body: ReadableStream<Uint8Array>; bytes: number; contentType: string; filename: string };

/** Writes the export and opens it for streaming; the file is unlinked once open (gone when the stream closes). */
export async function exportData(ctx: AppContext, site: Site, q: ExportQuery): Promise<ExportFile> {
  const dir = exportDir(ctx.config.dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${crypto.randomUUID()}.${q.format}`);
  try {
    await ctx.db.exec(`COPY (${selectSql(ctx, site, q)}) TO ${sqlPath(path)} (${COPY_OPTIONS[q.format]})`);
    const fd = await open(path, 'r');
    const bytes = (await stat(path)).size;
    rmSync(path, { force: true });
    let closed = false;
    const close = () => { if (!closed) { closed = true; void fd.close(); } };
    const body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        const buf = new Uint8Array(READ_CHUNK);
        const { bytesRead } = await fd.read(buf, 0, READ_CHUNK, null);
        if (bytesRead === 0) { close(); ctrl.close(); return; }
        ctrl.enqueue(bytesRead === READ_CHUNK ? buf : buf.subarray(0, bytesRead));
      },
      cancel: close,
    }, { highWaterMark: 2 });
    const span = q.from || q.to ? `-${q.from ?? 'start'}-${q.to ?? 'today'}` : '';
    return { body, bytes, contentType: CONTENT_TYPE[q.format], filename: `${site.domain}-${q.table}${span}.${q.format}` };
  } catch (e) {
    rmSync(path, { force: true });
    throw e;
  }
}
