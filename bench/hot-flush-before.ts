// The hot-event flush as it was before (commit bdb6fcc), kept only as bench/hot-flush.ts's baseline: each month's
// file picked from the whole hot table by a time range.
import type { Param, Tx } from '../src/storage/database.ts';
import type { ParquetFile, ParquetManifest } from '../src/storage/parquet-layout.ts';
import { writePartition } from '../src/storage/parquet-writer.ts';
import { frag, sql } from '../src/storage/sql.ts';
import { STORED_EVENT_COLUMNS } from '../src/storage/marks.ts';
import { hotMonths, monthSpan } from '../src/storage/hot-events.ts';

/** The previous flushHotEvents (same contract as src/storage/hot-events.ts): one time-range pick per month file. */
export async function flushHotEvents(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId?: string): Promise<number> {
  const where = siteId === undefined ? frag('') : sql` WHERE site_id = ${siteId}`;
  const parts = await hotMonths(tx, siteId);
  let rows = 0;
  for (const { site_id, month, ...stats } of parts) {
    const [from, to] = monthSpan(month);
    await writePartition(tx, manifest, written, 'events', site_id, month,
      sql`SELECT ${frag(STORED_EVENT_COLUMNS)} FROM events WHERE site_id = ${site_id} AND ts >= ${from}::TIMESTAMP AND ts < ${to}::TIMESTAMP`,
      { ...stats, rows: Number(stats.rows) });
    rows += Number(stats.rows);
  }
  if (rows) await tx.exec(`DELETE FROM events${where.sql}`, where.params as Param[]);
  return rows;
}
