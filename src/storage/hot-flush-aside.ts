// The hot-event flush beside the analytics writers' queue: a million hot events are sorted and encoded to
// Parquet (~7 s of CPU) from the transaction's snapshot while imports go on loading on the other core, and the
// queue is taken only to start that snapshot and, at the end, to delete the rows written and commit. Rows
// imported meanwhile are outside the snapshot, so they are neither written nor deleted. A writer that changed or
// deleted a hot row meanwhile (an import joining visits it bridged, an erasure, a site's deletion, a flush in
// the queue) makes the flush give up its files (hot-events.ts counts those edits): DuckDB would let it delete an
// updated row and keep the old values in its files.
import type { Database } from './database.ts';
import type { Serial } from './serial.ts';
import type { ParquetManifest } from './parquet-layout.ts';
import { writingFiles } from './parquet-writer.ts';
import { deleteHotEvents, hotEventEdits, hotMonths, writeHotFiles } from './hot-events.ts';
import { pausePoint } from './pause-point.ts';

class Superseded extends Error {}

export type AsideFlush = { rows: number; writeMs: number; waitMs: number; deleteMs: number; commitMs: number; checkpointMs: number } | null;

/**
 * Writes every hot event to Parquet as flushHotEvents does, holding `serial` only at the start and the end.
 * Returns the rows flushed and where the time went, or null when a writer changed hot rows meanwhile (nothing of
 * the flush kept; the rows stay hot).
 */
export async function flushAside(db: Database, manifest: ParquetManifest, serial: Serial): Promise<AsideFlush> {
  const t = [performance.now()];
  const lap = () => t.push(performance.now());
  // The snapshot starts in the queue's turn, when no writer is under way: every edit it misses comes after `mark`.
  let release: (() => void) | undefined = await serial.hold();
  const mark = hotEventEdits();
  try {
    const rows = await writingFiles(db, manifest, async (tx, written) => {
      const parts = await hotMonths(tx);
      release!();
      release = undefined;
      const rows = await writeHotFiles(tx, manifest, written, parts);
      await pausePoint('hot-flush:written');
      lap();
      release = await serial.hold();
      lap();
      if (hotEventEdits() !== mark) throw new Superseded();
      if (rows) await deleteHotEvents(tx);
      lap();
      return rows;
    });
    lap();
    // Still in the queue's turn, so no write transaction refuses it: the WAL's inserted-then-deleted hot rows are
    // checkpointed away now, not written to the database file by an automatic checkpoint mid-import.
    if (rows) await db.exec('CHECKPOINT').catch(() => {});
    lap();
    const ms = (i: number) => Math.round(t[i]! - t[i - 1]!);
    return { rows, writeMs: ms(1), waitMs: ms(2), deleteMs: ms(3), commitMs: ms(4), checkpointMs: ms(5) };
  } catch (e) {
    if (e instanceof Superseded) return null;
    throw e;
  } finally {
    release?.();
  }
}
