// The hot-event flush as it was before (commit bdb6fcc), kept only as bench/hot-flush.ts's baseline: each month's
// file picked from the whole hot table by a time range.
import type { Param, Tx } from '../src/storage/database.ts';
import type { ParquetFile, ParquetManifest } from '../src/storage/parquet-layout.ts';
import { writePartition, type FileStats } from '../src/storage/parquet-writer.ts';
import { frag, sql } from '../src/storage/sql.ts';
import { STORED_EVENT_COLUMNS } from '../src/storage/marks.ts';

/**
 * Compaction after an import writes the hot events out once this many wait (the minute's compaction writes
 * whatever waits): a year of history then lands as files of ~40–80k rows per month rather than ~4k.
 */
export const HOT_FLUSH_ROWS = 1_000_000;

/** How many events wait in the hot table. */
export async function hotEventRows(tx: Pick<Tx, 'query'>): Promise<number> {
  const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::BIGINT AS n FROM events');
  return Number(n);
}

/** [start, end) of a 'YYYY-MM' month, as DuckDB timestamps' text. */
function monthSpan(month: string): [string, string] {
  const [y, m] = month.split('-').map(Number);
  const next = new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 7);
  return [`${month}-01 00:00:00`, `${next}-01 00:00:00`];
}

/**
 * Writes the hot events (of `siteId`, or of every site) to Parquet files, one per site and month, appended to
 * `written`, and deletes them from the table, in the caller's transaction (writingFiles: the files become
 * visible when it commits). Returns the number of events written. Each file's rows are picked by a time range,
 * which DuckDB tests on the ts column alone while scanning (a month computed per row read every column, for
 * every month, and made this several times slower).
 */
export async function flushHotEvents(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId?: string): Promise<number> {
  const where = siteId === undefined ? frag('') : sql` WHERE site_id = ${siteId}`;
  const parts = await tx.query<FileStats & { site_id: string; month: string }>(
    `SELECT site_id, strftime(ts, '%Y-%m') AS month, count(*)::BIGINT AS rows, min(ts)::VARCHAR AS min_ts, max(ts)::VARCHAR AS max_ts
     FROM events${where.sql} GROUP BY ALL ORDER BY ALL`, where.params as Param[]);
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
