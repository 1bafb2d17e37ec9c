// Erases one visitor of a site from everything stored: every events and visits file holding their rows is
// rewritten without them, and their hot events and visits, profile, history, purchases and slot counts go, all in one
// transaction with the audit row (which is also the loader's tombstone for their events still in the log).
// A crash before the commit leaves the old files registered (the new ones are orphans, swept at start); after
// it, the new ones (the old ones become orphans). The caller runs this behind the other analytics writes.
import { rmSync } from 'node:fs';
import { BACKGROUND_THREADS, type Database, type Tx } from './database.ts';
import { type ParquetFile, type ParquetManifest } from './parquet-layout.ts';
import { unregister } from './parquet-writer.ts';
import { rewriteWithout } from './erase-rewrite.ts';
import { inParallel, limiter } from './limiter.ts';
import { pausePoint } from './pause-point.ts';
import { log } from '../log.ts';
import { subtractEvents } from './registries.ts';
import { frag } from './sql.ts';
import { deleteVisitorHotEvents } from './hot-events.ts';

/** Replaced files stay readable this long for queries already planned against them (as compaction's). */
const DELETE_GRACE_MS = 60_000;

export type Erasure = { id: string; siteId: string; visitor: string; visitorId: number; erasedAtMs: number; erasedBy: string };
export type ErasureCounts = { events_deleted: number; visits_deleted: number };

/** Rows of a log relation, without those of visitors erased after the rows were accepted (see 0010's comment). */
export const withoutErased = (source: string) => `(SELECT l.* FROM ${source} l ANTI JOIN visitor_erasures x
  ON x.site_id = l.site_id AND x.visitor_id = l.visitor_id AND l.ts <= x.erased_at)`;

/**
 * Rows of an import's staging relation (its values bound first), without those of visitors erased since the
 * import began (`?` bound to that instant, ms): an import running while an erasure ran must not bring the
 * visitor back. Erasures before the import began do not apply: what is imported after an erasure is new data,
 * as for live events.
 */
export const withoutErasedSince = (source: string) => `(SELECT l.* FROM ${source} l ANTI JOIN visitor_erasures x
  ON x.site_id = l.site_id AND x.visitor_id = l.visitor_id AND x.erased_at >= epoch_ms(?::BIGINT))`;

type Hit = { path: string; rows: number[]; min_ts: string | null; max_ts: string | null };

/** Per file of `files`, the row numbers of the visitor's rows and the time span of the others (null when none is left). */
async function hits(db: Database | Tx, manifest: ParquetManifest, files: ParquetFile[], timeCol: string, visitorId: number): Promise<Map<string, Hit>> {
  if (!files.length) return new Map();
  const byAbs = new Map(files.map((f) => [manifest.abs(f.path), f.path]));
  // The visitor column alone finds the rows (one narrow scan); only those files are read for their new span.
  const found = await db.query<{ file: string; rows: number[] }>(
    `SELECT filename AS file, list(file_row_number ORDER BY file_row_number) AS rows
     FROM read_parquet(?::VARCHAR[], filename = true, file_row_number = true, hive_partitioning = false)
     WHERE visitor_id = ?::BIGINT GROUP BY ALL`, [[...byAbs.keys()], visitorId]);
  if (!found.length) return new Map();
  const spans = await db.query<{ file: string; min_ts: string | null; max_ts: string | null }>(
    `SELECT filename AS file, min(${timeCol})::VARCHAR AS min_ts, max(${timeCol})::VARCHAR AS max_ts
     FROM read_parquet(?::VARCHAR[], filename = true, hive_partitioning = false) WHERE visitor_id <> ?::BIGINT GROUP BY ALL`,
    [found.map((f) => f.file), visitorId]);
  const span = new Map(spans.map((s) => [s.file, s]));
  return new Map(found.map((f) => [byAbs.get(f.file)!, { path: byAbs.get(f.file)!, rows: f.rows, min_ts: span.get(f.file)?.min_ts ?? null, max_ts: span.get(f.file)?.max_ts ?? null }]));
}

/** DuckDB re-encodings at once, each on one DuckDB thread: two use both cores of a small machine. */
const PARALLEL_ENCODES = 2;
/**
 * Files rewritten at once: more than the encodings, so that while one file is spliced and synced (disk, not
 * CPU) the others keep both encoding slots busy.
 */
const PARALLEL_REWRITES = 4;

/**
 * The file_engagement rows of each `next`, a rewrite of `old` without the visitor: the old file's rows, renamed,
 * less the visitor's own sums (from their rows alone, a narrow read); a key only the visitor had goes. Copying
 * the old rows and summing the new file again for the visitor's keys cost ~1.7 s of a year's erasure (514k
 * rows inserted and deleted, a month of five columns read per file); renaming in place, ~0.3 s. Counts are
 * exact; a sum may differ from a fresh one in its last bits, as sums in another order do.
 */
async function carryEngagement(tx: Tx, manifest: ParquetManifest, pairs: { old: ParquetFile; next: ParquetFile }[], visitorId: number) {
  const events = pairs.filter((p) => p.old.tbl === 'events');
  if (!events.length) return;
  const old = events.map((p) => p.old.path);
  const key = (a: string, b: string) => `${a}.day = ${b}.day AND ${a}.engaged_path IS NOT DISTINCT FROM ${b}.engaged_path AND ${a}.engaged_hostname IS NOT DISTINCT FROM ${b}.engaged_hostname`;
  await tx.exec(`UPDATE file_engagement e SET
      top_n = e.top_n - v.top_n, top_sum = CASE WHEN e.top_n = v.top_n THEN 0 ELSE e.top_sum - v.top_sum END,
      sd_n = e.sd_n - v.sd_n, sd_sum = CASE WHEN e.sd_n = v.sd_n THEN 0 ELSE e.sd_sum - v.sd_sum END
    FROM (SELECT m.old, r.day, r.engaged_path, r.engaged_hostname, coalesce(sum(time_on_page), 0) AS top_sum, count(time_on_page) AS top_n,
            coalesce(sum(scroll_depth), 0) AS sd_sum, count(scroll_depth) AS sd_n
          FROM (SELECT filename, ts::DATE AS day, engaged_path, engaged_hostname, time_on_page, scroll_depth
                FROM read_parquet(?::VARCHAR[], filename = true, hive_partitioning = false)
                WHERE visitor_id = ?::BIGINT AND (time_on_page IS NOT NULL OR scroll_depth IS NOT NULL)) r
          JOIN (SELECT unnest(?::VARCHAR[]) AS abs, unnest(?::VARCHAR[]) AS old) m ON m.abs = r.filename GROUP BY ALL) v
    WHERE e.file = v.old AND ${key('v', 'e')}`,
  [events.map((p) => manifest.abs(p.old.path)), String(Math.trunc(visitorId)), events.map((p) => manifest.abs(p.old.path)), old]);
  await tx.exec('DELETE FROM file_engagement WHERE file = ANY(?::VARCHAR[]) AND top_n = 0 AND sd_n = 0', [old]);
  await tx.exec(`UPDATE file_engagement e SET file = m.next FROM (SELECT unnest(?::VARCHAR[]) AS old, unnest(?::VARCHAR[]) AS next) m WHERE e.file = m.old`,
    [old, events.map((p) => p.next.path)]);
}

/**
 * Erases the visitor and records the erasure; returns the counts. The files holding the visitor are written
 * again first, two at a time, each touching only its row groups that hold the visitor (erase-rewrite.ts); then
 * one transaction registers them in place of the old ones and deletes everything else of the visitor. A crash
 * before the commit leaves the old files registered (the new ones are orphans, swept at start); after it, the
 * new ones.
 */
export async function eraseVisitor(db: Database, manifest: ParquetManifest, e: Erasure, onRetire: (files: string[]) => void): Promise<ErasureCounts> {
  const t0 = performance.now();
  const listed = (tbl: 'events' | 'visits') => manifest.months(tbl, e.siteId).flatMap((m) => manifest.all(tbl, e.siteId, m));
  const [evFiles, viFiles] = [listed('events'), listed('visits')];
  const [evHits, viHits] = [await hits(db, manifest, evFiles, 'ts', e.visitorId), await hits(db, manifest, viFiles, 'start_ts', e.visitorId)];
  const written: ParquetFile[] = [];
  const replaced = [...evFiles.filter((f) => evHits.has(f.path)), ...viFiles.filter((f) => viHits.has(f.path))];
  const pairs: { old: ParquetFile; next: ParquetFile }[] = [];
  const tally = { copied: 0, rewritten: 0 };
  const t1 = performance.now();
  let t2 = t1;
  let counts: ErasureCounts;
  try {
    // Each re-encoding on one DuckDB thread, two at once: a COPY of one row group on two threads spent ~1.6× the
    // CPU for no shorter run (the other thread waits), and erasures run in the writers' queue, where loads and
    // merges already set the thread count (DuckDB's is global).
    // The files with the most of the visitor's rows (so the most row groups to re-encode) first, so that no
    // long rewrite starts last and runs alone.
    const hitOf = (f: ParquetFile) => (f.tbl === 'events' ? evHits : viHits).get(f.path)!;
    const order = [...replaced].sort((a, b) => hitOf(b).rows.length - hitOf(a).rows.length);
    const encodes = limiter(PARALLEL_ENCODES);
    await db.withThreads(BACKGROUND_THREADS, () => inParallel(order, PARALLEL_REWRITES, async (f) => {
      const hit = (f.tbl === 'events' ? evHits : viHits).get(f.path)!;
      const left = f.rows - hit.rows.length;
      if (left <= 0 || !hit.min_ts || !hit.max_ts) return;
      const stats = { rows: left, min_ts: hit.min_ts, max_ts: hit.max_ts };
      // Listed before the write starts, so a failure removes a half-written file too.
      const slot = { path: '' } as ParquetFile;
      written.push(slot);
      const next = await rewriteWithout(db, manifest, f, e.visitorId, hit.rows, stats, tally, encodes);
      Object.assign(slot, next);
      pairs.push({ old: f, next });
    }));
    await pausePoint('erase:files-written');
    t2 = performance.now();
    counts = await db.transaction(async (tx) => {
      // Slot registries lose the visitor's events; read from the old files before they are unregistered.
      const evAbs = replaced.filter((f) => f.tbl === 'events').map((f) => manifest.abs(f.path));
      if (evAbs.length) {
        await subtractEvents(tx, frag(`(SELECT * FROM read_parquet(?::VARCHAR[], hive_partitioning = false) WHERE visitor_id = ?::BIGINT)`, [evAbs, e.visitorId]));
      }
      for (const { next } of pairs) {
        await tx.exec('INSERT INTO parquet_files VALUES (?, ?, ?, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, now()::TIMESTAMP)',
          [next.path, next.tbl, next.site_id, next.month, next.rows, next.min_ts, next.max_ts]);
      }
      await carryEngagement(tx, manifest, pairs, e.visitorId);
      await unregister(tx, replaced.map((f) => f.path));
      // Events an import left in the hot table (storage/hot-events.ts) go in place, their slot registries' counts with them.
      await subtractEvents(tx, frag(`(SELECT * FROM events WHERE site_id = ? AND visitor_id = ?::BIGINT)`, [e.siteId, e.visitorId]));
      const hotEvents = await deleteVisitorHotEvents(tx, e.siteId, e.visitorId);
      const hot = await tx.query<{ n: number }>('DELETE FROM visits WHERE site_id = ? AND visitor_id = ?::BIGINT RETURNING 1 AS n', [e.siteId, e.visitorId]);
      for (const t of ['visitors', 'visitor_history', 'purchases']) await tx.exec(`DELETE FROM ${t} WHERE site_id = ? AND visitor_id = ?::BIGINT`, [e.siteId, e.visitorId]);
      const out = {
        events_deleted: [...evHits.values()].reduce((n, h) => n + h.rows.length, 0) + hotEvents,
        visits_deleted: [...viHits.values()].reduce((n, h) => n + h.rows.length, 0) + hot.length,
      };
      await tx.exec(`INSERT INTO visitor_erasures VALUES (?::UUID, ?, ?::UUID, ?::BIGINT, epoch_ms(?::BIGINT), ?::UUID, ?, ?)`,
        [e.id, e.siteId, e.visitor, e.visitorId, e.erasedAtMs, e.erasedBy, out.events_deleted, out.visits_deleted]);
      await pausePoint('erase:after-write');
      return out;
    }, () => {
      // Published with the commit in one synchronous step, so no query sees both the old and the new file of a pair.
      for (const { next } of pairs) manifest.add(next);
      manifest.remove(replaced.map((f) => f.path));
    });
  } catch (err) {
    for (const f of written) if (f.path) rmSync(manifest.abs(f.path), { force: true });
    throw err;
  }
  log.info('visitor erased', { site: e.siteId, files: replaced.length, rowGroupsRewritten: tally.rewritten, rowGroupsCopied: tally.copied,
    findMs: Math.round(t1 - t0), writeMs: Math.round(t2 - t1), commitMs: Math.round(performance.now() - t2) });
  await pausePoint('erase:after-commit');
  onRetire(replaced.map((f) => manifest.abs(f.path)));
  return counts;
}

/**
 * Deletes replaced files after a grace period, and not before the query snapshots that may list them are done
 * (`manifest`: the one they left); `bury` deletes the pending ones at once (at stop).
 */
export class Graveyard {
  private pending: { timer: ReturnType<typeof setTimeout>; paths: string[] }[] = [];
  add(paths: string[], manifest: ParquetManifest) {
    if (!paths.length) return;
    const seen = manifest.mark();
    const entry = { paths, timer: setTimeout(() => manifest.afterViewsBefore(seen, () => this.delete(entry)), DELETE_GRACE_MS) };
    this.pending.push(entry);
  }
  private delete(entry: { timer: ReturnType<typeof setTimeout>; paths: string[] }) {
    clearTimeout(entry.timer);
    for (const p of entry.paths) rmSync(p, { force: true });
    this.pending = this.pending.filter((x) => x !== entry);
  }
  bury() { for (const e of [...this.pending]) this.delete(e); }
}
