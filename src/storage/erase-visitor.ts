// Erases one visitor of a site from everything stored: every events and visits file holding their rows is
// rewritten without them, and their hot events and visits, profile, history, purchases and slot counts go, all in one
// transaction with the audit row (which is also the loader's tombstone for their events still in the log).
// A crash before the commit leaves the old files registered (the new ones are orphans, swept at start); after
// it, the new ones (the old ones become orphans). The caller runs this behind the other analytics writes.
import { rmSync } from 'node:fs';
import type { Database, Tx } from './database.ts';
import { sqlPath, type ParquetFile, type ParquetManifest } from './parquet-layout.ts';
import { unregister, writePartition } from './parquet-writer.ts';
import { pausePoint } from './pause-point.ts';

/** Replaced files stay readable this long for queries already planned against them (as compaction's). */
const DELETE_GRACE_MS = 60_000;

export type Erasure = { id: string; siteId: string; visitor: string; visitorId: number; erasedAtMs: number; erasedBy: string };
export type ErasureCounts = { events_deleted: number; visits_deleted: number };

/** Rows of a log relation, without those of visitors erased after the rows were accepted (see 0010's comment). */
export const withoutErased = (source: string) => `(SELECT l.* FROM ${source} l ANTI JOIN visitor_erasures x
  ON x.site_id = l.site_id AND x.visitor_id = l.visitor_id AND l.ts <= x.erased_at)`;

type Hit = { path: string; n: number; min_ts: string | null; max_ts: string | null };

/** Per file of `files`, the visitor's rows and the time span of the others (null when none is left). */
async function hits(db: Database | Tx, manifest: ParquetManifest, files: ParquetFile[], timeCol: string, visitorId: number): Promise<Map<string, Hit>> {
  if (!files.length) return new Map();
  const byAbs = new Map(files.map((f) => [manifest.abs(f.path), f.path]));
  // The visitor column alone finds the files (one narrow scan); only those are read for their new span.
  const found = await db.query<{ file: string; n: number }>(
    `SELECT filename AS file, count(*) AS n FROM read_parquet(?::VARCHAR[], filename = true, hive_partitioning = false)
     WHERE visitor_id = ?::BIGINT GROUP BY ALL`, [[...byAbs.keys()], visitorId]);
  if (!found.length) return new Map();
  const spans = await db.query<{ file: string; min_ts: string | null; max_ts: string | null }>(
    `SELECT filename AS file, min(${timeCol})::VARCHAR AS min_ts, max(${timeCol})::VARCHAR AS max_ts
     FROM read_parquet(?::VARCHAR[], filename = true, hive_partitioning = false) WHERE visitor_id <> ?::BIGINT GROUP BY ALL`,
    [found.map((f) => f.file), visitorId]);
  const span = new Map(spans.map((s) => [s.file, s]));
  return new Map(found.map((f) => [byAbs.get(f.file)!, { path: byAbs.get(f.file)!, n: f.n, min_ts: span.get(f.file)?.min_ts ?? null, max_ts: span.get(f.file)?.max_ts ?? null }]));
}

/**
 * Erases the visitor and records the erasure; returns the counts. Files are rewritten one by one (each a
 * streamed COPY of the file minus the visitor's rows), so memory stays that of one file's row group.
 */
export async function eraseVisitor(db: Database, manifest: ParquetManifest, e: Erasure, onRetire: (files: string[]) => void): Promise<ErasureCounts> {
  const listed = (tbl: 'events' | 'visits') => manifest.months(tbl, e.siteId).flatMap((m) => manifest.all(tbl, e.siteId, m));
  const [evFiles, viFiles] = [listed('events'), listed('visits')];
  const [evHits, viHits] = [await hits(db, manifest, evFiles, 'ts', e.visitorId), await hits(db, manifest, viFiles, 'start_ts', e.visitorId)];
  const written: ParquetFile[] = [];
  const replaced = [...evFiles.filter((f) => evHits.has(f.path)), ...viFiles.filter((f) => viHits.has(f.path))];
  let counts: ErasureCounts;
  try {
    counts = await db.transaction(async (tx) => {
      // Slot counts lose the visitor's events; read from the old files before they are unregistered.
      const evAbs = replaced.filter((f) => f.tbl === 'events').map((f) => manifest.abs(f.path));
      if (evAbs.length) {
        await tx.exec(`UPDATE event_counts c SET pageviews = c.pageviews - d.pv, events = c.events - d.ev
          FROM (SELECT time_bucket(INTERVAL 15 MINUTE, ts) AS slot, count(*) FILTER (WHERE event_type = 'pageview') AS pv, count(*) AS ev
                FROM read_parquet(?::VARCHAR[], hive_partitioning = false) WHERE visitor_id = ?::BIGINT GROUP BY ALL) d
          WHERE c.site_id = ? AND c.slot = d.slot`, [evAbs, e.visitorId, e.siteId]);
      }
      for (const f of replaced) {
        const hit = (f.tbl === 'events' ? evHits : viHits).get(f.path)!;
        const left = f.rows - hit.n;
        if (left <= 0 || !hit.min_ts || !hit.max_ts) continue;
        // The visitor id is a number from our own tables, spliced because COPY takes no parameters.
        await writePartition(tx, manifest, written, f.tbl, f.site_id, f.month,
          `SELECT * FROM read_parquet(${sqlPath(manifest.abs(f.path))}, hive_partitioning = false) WHERE visitor_id <> ${Math.trunc(e.visitorId)}`,
          { rows: left, min_ts: hit.min_ts, max_ts: hit.max_ts }, { presorted: true });
      }
      await unregister(tx, replaced.map((f) => f.path));
      // Events an import left in the hot table (storage/hot-events.ts) go in place, their slot counts with them.
      await tx.exec(`UPDATE event_counts c SET pageviews = c.pageviews - d.pv, events = c.events - d.ev
        FROM (SELECT time_bucket(INTERVAL 15 MINUTE, ts) AS slot, count(*) FILTER (WHERE event_type = 'pageview') AS pv, count(*) AS ev
              FROM events WHERE site_id = ? AND visitor_id = ?::BIGINT GROUP BY ALL) d
        WHERE c.site_id = ? AND c.slot = d.slot`, [e.siteId, e.visitorId, e.siteId]);
      const hotEvents = await tx.query<{ n: number }>('DELETE FROM events WHERE site_id = ? AND visitor_id = ?::BIGINT RETURNING 1 AS n', [e.siteId, e.visitorId]);
      const hot = await tx.query<{ n: number }>('DELETE FROM visits WHERE site_id = ? AND visitor_id = ?::BIGINT RETURNING 1 AS n', [e.siteId, e.visitorId]);
      for (const t of ['visitors', 'visitor_history', 'purchases']) await tx.exec(`DELETE FROM ${t} WHERE site_id = ? AND visitor_id = ?::BIGINT`, [e.siteId, e.visitorId]);
      const out = {
        events_deleted: [...evHits.values()].reduce((n, h) => n + h.n, 0) + hotEvents.length,
        visits_deleted: [...viHits.values()].reduce((n, h) => n + h.n, 0) + hot.length,
      };
      await tx.exec(`INSERT INTO visitor_erasures VALUES (?::UUID, ?, ?::UUID, ?::BIGINT, epoch_ms(?::BIGINT), ?::UUID, ?, ?)`,
        [e.id, e.siteId, e.visitor, e.visitorId, e.erasedAtMs, e.erasedBy, out.events_deleted, out.visits_deleted]);
      await pausePoint('erase:after-write');
      return out;
    });
  } catch (err) {
    for (const f of written) rmSync(manifest.abs(f.path), { force: true });
    throw err;
  }
  // Published in one synchronous step, so no query sees both the old and the new file of a pair.
  for (const f of written) manifest.add(f);
  manifest.remove(replaced.map((f) => f.path));
  await pausePoint('erase:after-commit');
  onRetire(replaced.map((f) => manifest.abs(f.path)));
  return counts;
}

/** Deletes replaced files after a grace period; `bury` deletes the pending ones at once (at stop). */
export class Graveyard {
  private pending: { timer: ReturnType<typeof setTimeout>; paths: string[] }[] = [];
  add(paths: string[]) {
    if (!paths.length) return;
    const entry = { paths, timer: setTimeout(() => this.delete(entry), DELETE_GRACE_MS) };
    this.pending.push(entry);
  }
  private delete(entry: { timer: ReturnType<typeof setTimeout>; paths: string[] }) {
    clearTimeout(entry.timer);
    for (const p of entry.paths) rmSync(p, { force: true });
    this.pending = this.pending.filter((x) => x !== entry);
  }
  bury() { for (const e of [...this.pending]) this.delete(e); }
}
