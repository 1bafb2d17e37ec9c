// Bulk import (contract §6): a streamed body in one of the import formats → validated, enriched rows in a
// staging file → sessionized with the visitor's stored visits and loaded by DuckDB through the same load
// path as live events, in one transaction.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKGROUND_THREADS, isOutOfMemory, type Database, type Tx } from '../storage/database.ts';
import type { Site } from '../sites/model.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { randomHex } from '../security/tokens.ts';
import { log } from '../log.ts';
import { load } from './load-sql.ts';
import type { ParquetFile, ParquetManifest } from '../storage/parquet-layout.ts';
import { frag } from '../storage/sql.ts';
import { withoutErasedSince } from '../storage/erase-visitor.ts';
import { readLogSql, toLine } from './log-format.ts';
import { buildRow } from './record.ts';
import type { Serial } from '../storage/serial.ts';
import { bodyBytes } from './import-formats/body-lines.ts';
import { IMPORT_FORMATS, type ImportFormatName } from './import-formats/index.ts';
import { importSecret, importVisitors, type LiveSalt } from './import-visitor.ts';
import { sessionizeImport } from './import-visits.ts';
import type { Turn } from './import-order.ts';

const MAX_ERRORS = 100;
/**
 * An import of at least this many events leaves them in the hot events table for compaction to write in large
 * batches (storage/hot-events.ts): a migration's stream of 50,000-line requests. A smaller one is written to
 * Parquet at once, as the loader writes live events: its files are few and small either way.
 */
export const HOT_IMPORT_MIN_EVENTS = 1000;
const FLUSH_CHARS = 1 << 20;
/**
 * An import of up to this many events loads on one DuckDB thread. Its statements work on a few tens of thousands
 * of rows, under one of DuckDB's row groups (122,880), where a second thread buys no shorter load and costs CPU:
 * 2M events in 50,000-line requests took 38 ms of server CPU per 1,000 events on one thread against 52 on both
 * cores (29.2k against 22.0k events/s; bench/import.ts, docs/benchmarks.md), and with two requests in flight the
 * other core reads the next body. Larger imports keep every core.
 */
const ONE_THREAD_MAX_EVENTS = 250_000;

/** `skipped`: lines left out on purpose by a tool's format (assets, bots, redirects…); absent for ndjson. */
export type ImportResult = { imported: number; rejected: number; skipped?: number; errors: { line: number; error: string }[] };

export type ImportOptions = {
  format?: ImportFormatName;
  liveSalt?: LiveSalt;
  /** In the load's transaction (or alone when nothing loads): where an idempotent import records its answer. */
  record?: (result: ImportResult, tx?: Tx) => Promise<void>;
  /** Told, once the import has committed, whether its events went to the hot events table. */
  loadedHot?: (hot: boolean) => void;
  /** The request's place among the site's imports in flight: its load is queued in that order (the caller passes it on every other path). */
  turn?: Turn;
};

const stagingDir = (dataDir: string) => join(dataDir, 'import');

/** Staging files of an import that never finished belong to no one: remove them at start. */
export function clearStaging(dataDir: string) {
  const dir = stagingDir(dataDir);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { recursive: true, force: true });
}

export async function importEvents(db: Database, serial: Serial, manifest: ParquetManifest, site: Site, body: ReadableStream<Uint8Array> | null,
  onBodyRead?: () => void, opts: ImportOptions = {}): Promise<ImportResult> {
  if (!body) throw badRequest('Empty body: expected the events to import, one per line');
  const format = opts.format ?? 'ndjson';
  const started = performance.now();
  // Visitors erased from now until the load (which runs in the erasures' queue) are left out of it.
  const startedAtMs = Date.now();
  const nonce = randomHex(8);
  const dir = stagingDir(db.dataDir);
  const file = join(dir, `${nonce}.ndjson`);
  mkdirSync(dir, { recursive: true });
  const visitorOf = importVisitors(site.id, await importSecret(db, serial, site.id), opts.liveSalt);
  const fd = await open(file, 'w');
  const result: ImportResult = format === 'ndjson' ? { imported: 0, rejected: 0, errors: [] } : { imported: 0, rejected: 0, skipped: 0, errors: [] };
  const reject = (line: number, error: string) => {
    result.rejected++;
    if (result.errors.length < MAX_ERRORS) result.errors.push({ line, error });
  };
  let buf: string[] = [];
  let bufChars = 0;
  try {
    for await (const item of IMPORT_FORMATS[format](bodyBytes(body), { site, db, stagingDir: dir, nonce })) {
      if ('skip' in item) { result.skipped!++; continue; }
      if ('error' in item) { reject(item.line, item.error); continue; }
      try {
        const e = item.event;
        const origin = { ip: e.ip ?? '', userAgent: e.user_agent ?? '' };
        const ids = { visitorId: visitorOf(e), visitId: null };
        // Tags the tool kept apart from the URL are read as if in it (source and channel), the URL stored as given.
        const row = item.tags ? { ...buildRow(site, { ...e, url: tagged(e.url, item.tags) }, origin, ids, e.timestamp), url: e.url } : buildRow(site, e, origin, ids, e.timestamp);
        if (item.known) for (const k in item.known) { const v = (item.known as any)[k]; if (v != null) (row as any)[k] = v; }
        const s = toLine(row);
        buf.push(s);
        bufChars += s.length;
        result.imported++;
      } catch (err) {
        // A line that trips enrichment is that line's problem, not the whole import's.
        reject(item.line, err instanceof ApiError ? err.message : 'Could not process this event');
      }
      if (bufChars >= FLUSH_CHARS) {
        await fd.write(buf.join('\n') + '\n');
        buf = [];
        bufChars = 0;
      }
    }
    onBodyRead?.();
    if (buf.length) await fd.write(buf.join('\n') + '\n');
    await fd.close();
    const read = performance.now();
    if (result.imported) {
      let visits: Awaited<ReturnType<typeof sessionizeImport>> | undefined;
      // The source names the table `before` builds, read when the load starts (after it).
      const hot = result.imported >= HOT_IMPORT_MIN_EVENTS;
      const source = { get sql() { return visits!.source; }, params: [], table: true, hot };
      await opts.turn?.ready;
      const loading = load(db, serial, manifest, source, async (tx) => {
        await visits!.drop();
        await opts.record?.(result, tx);
      }, {
        before: async (tx, written) => {
          visits = await sessionizeImport(tx, manifest, written, site.id, frag(withoutErasedSince(readLogSql), [[file], startedAtMs]), nonce);
        },
        // With the commit: a query planned between would read a continued visit twice, or the new files without the visits they left.
        publish: () => retire(manifest, visits!.replaced),
        threads: result.imported <= ONE_THREAD_MAX_EVENTS ? BACKGROUND_THREADS : undefined,
      });
      opts.turn?.pass();
      await loading.catch((e) => {
        // The whole file loads in one transaction (all or nothing); past the memory budget, say so.
        if (isOutOfMemory(e)) throw new ApiError(503, `Import of ${result.imported} events needs more memory than the server allows (DUCKDB_MEMORY_LIMIT); nothing was imported: split the file or raise the limit`);
        throw e;
      });
      opts.loadedHot?.(hot);
      if (visits!.merged) log.info('import joined stored visits it bridged', { site: site.id, folded: visits!.merged });
    } else await opts.record?.(result);
    log.info('import loaded', { site: site.id, format, imported: result.imported, rejected: result.rejected, readMs: Math.round(read - started), loadMs: Math.round(performance.now() - read) });
    return result;
  } finally {
    await fd.close().catch(() => {});
    rmSync(file, { force: true });
  }
}

/** Visit files written again without the visits an import continued: out of queries now, off the disk in a minute. */
function retire(manifest: ParquetManifest, files: ParquetFile[]) {
  if (!files.length) return;
  manifest.remove(files.map((f) => f.path));
  const seen = manifest.mark();
  const doomed = files.map((f) => manifest.abs(f.path));
  // Queries planned a moment ago may still read them: their snapshots hold them past the minute.
  const timer = setTimeout(() => manifest.afterViewsBefore(seen, () => { for (const p of doomed) rmSync(p, { force: true }); }), 60_000);
  (timer as any).unref?.();
}

/** `url` with `tags` added as query parameters where it has none of that name. */
function tagged(url: string, tags: Record<string, string>): string {
  try {
    const u = new URL(url);
    for (const [k, v] of Object.entries(tags)) if (v && !u.searchParams.has(k)) u.searchParams.set(k, v);
    return u.toString();
  } catch {
    return url;
  }
}
