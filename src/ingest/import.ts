// Bulk import (contract §6): a streamed NDJSON body → validated, enriched rows in a staging file →
// sessionized and loaded by DuckDB through the same load path as live events.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { isOutOfMemory, type Database } from '../storage/database.ts';
import type { Site } from '../sites/model.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { randomHex } from '../security/tokens.ts';
import { log } from '../log.ts';
import { anonVisitorId, uidVisitorId } from './hash.ts';
import { dayOf } from './salts.ts';
import { load, sessionizedSource } from './load-sql.ts';
import { frag } from '../storage/sql.ts';
import type { ParquetManifest } from '../storage/parquet-layout.ts';
import { readLogSql, toLine } from './log-format.ts';
import { buildRow } from './record.ts';
import type { Serial } from '../storage/serial.ts';
import { parseImportLine } from './validate.ts';

const MAX_LINE_BYTES = 64 * 1024;
const MAX_ERRORS = 100;
const FLUSH_CHARS = 1 << 20;

export type ImportResult = { imported: number; rejected: number; errors: { line: number; error: string }[] };

const stagingDir = (dataDir: string) => join(dataDir, 'import');

/** Staging files of an import that never finished belong to no one: remove them at start. */
export function clearStaging(dataDir: string) {
  const dir = stagingDir(dataDir);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });
}

/** Lines of a byte stream, decoded as UTF-8; a line longer than the cap is reported as null. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string | null> {
  const decoder = new TextDecoder();
  let partial = '';
  let overflow = false;
  for await (const chunk of body as any as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (overflow) { overflow = false; partial = ''; yield null; continue; }
      const line = partial ? partial + piece : piece;
      partial = '';
      yield line.length > MAX_LINE_BYTES ? null : line;
    }
    if (!overflow) {
      partial += text.slice(start);
      if (partial.length > MAX_LINE_BYTES) { overflow = true; partial = ''; }
    }
  }
  const rest = partial + decoder.decode();
  if (overflow) yield null;
  else if (rest) yield rest;
}

export async function importEvents(db: Database, serial: Serial, manifest: ParquetManifest, site: Site, body: ReadableStream<Uint8Array> | null, onBodyRead?: () => void): Promise<ImportResult> {
  if (!body) throw badRequest('Empty body: expected NDJSON, one event per line');
  const started = performance.now();
  const nonce = randomHex(8);
  const file = join(stagingDir(db.dataDir), `${nonce}.ndjson`);
  mkdirSync(stagingDir(db.dataDir), { recursive: true });
  const fd = await open(file, 'w');
  const result: ImportResult = { imported: 0, rejected: 0, errors: [] };
  const fail = (status: number, msg: string) => new ApiError(status, msg);
  let buf: string[] = [];
  let bufChars = 0;
  let n = 0;
  try {
    for await (const line of lines(body)) {
      n++;
      if (line !== null && !line.trim()) continue;
      try {
        if (line === null) throw fail(400, `Line too long: at most ${MAX_LINE_BYTES / 1024} KiB`);
        const e = parseImportLine(line.endsWith('\r') ? line.slice(0, -1) : line, fail);
        const origin = { ip: e.ip ?? '', userAgent: e.user_agent ?? '' };
        // Without a uid, the visitor is a per-day fingerprint, as live; this import's own salt stands in.
        const visitorId = e.visitor_uid ? uidVisitorId(site.id, e.visitor_uid) : anonVisitorId(nonce + dayOf(e.timestamp), site.id, origin.ip, origin.userAgent);
        const s = toLine(buildRow(site, e, origin, { visitorId, visitId: null }, e.timestamp));
        buf.push(s);
        bufChars += s.length;
        result.imported++;
      } catch (err) {
        // A line that trips enrichment is that line's problem, not the whole import's.
        result.rejected++;
        const error = err instanceof ApiError ? err.message : 'Could not process this event';
        if (result.errors.length < MAX_ERRORS) result.errors.push({ line: n, error });
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
      await load(db, serial, manifest, sessionizedSource(frag(readLogSql, [[file]]), nonce)).catch((e) => {
        // The whole file loads in one transaction (all or nothing); past the memory budget, say so.
        if (isOutOfMemory(e)) throw new ApiError(503, `Import of ${result.imported} events needs more memory than the server allows (DUCKDB_MEMORY_LIMIT); nothing was imported: split the file or raise the limit`);
        throw e;
      });
    }
    log.info('import loaded', { site: site.id, imported: result.imported, rejected: result.rejected, readMs: Math.round(read - started), loadMs: Math.round(performance.now() - read) });
    return result;
  } finally {
    await fd.close().catch(() => {});
    rmSync(file, { force: true });
  }
}
