// Exports a site's events or visits as Parquet, CSV or NDJSON: Parquet assembled from the stored files
// (export-parquet.ts); text formats written by DuckDB's COPY to DATA_DIR/exports a month at a time, each file
// streamed to the client and deleted. A download runs at the speed DuckDB writes and the disk reads, memory flat.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { badRequest } from '../http/errors.ts';
import { DATE_EXPECTED, isDate, todayIn } from '../query/parse/calendar.ts';
import { dayRange } from '../query/parse/period.ts';
import type { ExportFormat } from './columns.ts';
import type { ExportQuery } from './model.ts';
import { parquetExport } from './export-parquet.ts';
import { exportDir, windowSql, writePiece, type Window } from './export-pieces.ts';
import { collectGarbage } from '../runtime/index.ts';
import { log } from '../log.ts';

const CONTENT_TYPE: Record<ExportFormat, string> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
};
const READ_CHUNK = 1 << 20;
/**
 * Bytes streamed between two forced collections: every chunk is a new buffer, and the runtime's collector
 * let a 3 GB CSV download's spent chunks pile up to a few hundred MB of RSS (runtime/index.ts).
 */
const COLLECT_EVERY = 64 << 20;

/** Counts the bytes a download sends and collects the garbage every COLLECT_EVERY of them. */
function sweeper() {
  let sent = 0;
  return (chunk: Uint8Array) => {
    sent += chunk.byteLength;
    if (sent >= COLLECT_EVERY) { sent = 0; collectGarbage(); }
    return chunk;
  };
}

/** Files of exports cut short by a crash belong to no one: removed at start. */
export function clearExports(dataDir: string) {
  const dir = exportDir(dataDir);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });
}

/** [fromUtc, toUtc) of the query's days, or undefined for everything stored. */
export function rangeOf(site: Site, q: ExportQuery) {
  if (!q.from && !q.to) return undefined;
  for (const [name, v] of [['from', q.from], ['to', q.to]] as const) if (v && !isDate(v)) throw badRequest(`Invalid ${name}: ${DATE_EXPECTED}`);
  const from = q.from ?? '1970-01-01';
  const to = q.to ?? todayIn(site.timezone);
  if (from > to) throw badRequest('from must not be after to');
  return dayRange('custom', from, to, site.timezone);
}

const monthStartUtc = (month: string) => `${month}-01T00:00:00.000Z`;
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 7);
};

/**
 * The pieces an export is written in. Parquet is one file, so one piece. CSV and NDJSON concatenate, so they
 * go a stored month at a time: the first bytes leave after one month's COPY, and the disk holds one month's
 * text at a time (a year of 10M events is ~7 GB of NDJSON). The current and the last month are always pieces (open visits).
 */
function pieces(ctx: AppContext, site: Site, q: ExportQuery, range: Window | undefined): (Window | undefined)[] {
  if (q.format === 'parquet') return [range];
  const months = new Set(ctx.parquet.months(q.table, site.id));
  // Open visits are in the hot table: they started this month, or late last month.
  const now = new Date();
  months.add(now.toISOString().slice(0, 7));
  months.add(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7));
  const out: Window[] = [];
  for (const m of [...months].sort()) {
    const w = { fromUtc: monthStartUtc(m), toUtc: monthStartUtc(nextMonth(m)) };
    const from = range && range.fromUtc > w.fromUtc ? range.fromUtc : w.fromUtc;
    const to = range && range.toUtc < w.toUtc ? range.toUtc : w.toUtc;
    if (from < to) out.push({ fromUtc: from, toUtc: to });
  }
  // An empty range still answers a (header-only) file.
  return out.length ? out : [range ?? { fromUtc: monthStartUtc('1970-01'), toUtc: monthStartUtc('1970-02') }];
}

export type ExportFile = { body: ReadableStream<Uint8Array>; contentType: string; filename: string };

/**
 * The export as a stream. Parquet: assembled from the stored files (export-parquet.ts). CSV and NDJSON: the
 * first piece is written before this returns (so a failure is still an error answer), and each next one
 * while the client reads the one before (two pieces on disk at most).
 */
export async function exportData(ctx: AppContext, site: Site, q: ExportQuery): Promise<ExportFile> {
  const range = rangeOf(site, q);
  const failed = (e: unknown) => log.error('export failed mid-stream; the download is cut short', { site: site.id, error: String(e) });
  let body: ReadableStream<Uint8Array>;
  const swept = sweeper();
  if (q.format === 'parquet') {
    const { chunks, close } = await parquetExport(ctx, site, q, range);
    body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        try {
          const r = await chunks.next();
          if (r.done) { await close(); ctrl.close(); } else ctrl.enqueue(swept(r.value));
        } catch (e) {
          await close();
          failed(e);
          ctrl.error(e);
        }
      },
      async cancel() { await chunks.return(undefined); await close(); },
    }, { highWaterMark: 8 });
  } else {
    const todo = pieces(ctx, site, q, range);
    const write = () => {
      const w = todo.length ? writePiece(ctx, windowSql(site, q, todo.shift()), q.format, false) : undefined;
      w?.catch(() => {});
      return w;
    };
    let fd: FileHandle | undefined = await writePiece(ctx, windowSql(site, q, todo.shift()), q.format, true);
    let next = write();
    const close = () => {
      const f = fd; fd = undefined; void f?.close();
      const n = next; next = undefined; void n?.then((x) => x.close(), () => {});
    };
    body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        try {
          while (fd) {
            const buf = new Uint8Array(READ_CHUNK);
            const { bytesRead } = await fd.read(buf, 0, READ_CHUNK, null);
            if (bytesRead) { ctrl.enqueue(swept(bytesRead === READ_CHUNK ? buf : buf.subarray(0, bytesRead))); return; }
            const done = fd;
            fd = next ? await next : undefined;
            void done.close();
            next = write();
          }
          ctrl.close();
        } catch (e) {
          close();
          failed(e);
          ctrl.error(e);
        }
      },
      cancel: close,
    }, { highWaterMark: 2 });
  }
  const span = q.from || q.to ? `-${q.from ?? 'start'}-${q.to ?? 'today'}` : '';
  return { body, contentType: CONTENT_TYPE[q.format], filename: `${site.domain}-${q.table}${span}.${q.format}` };
}
