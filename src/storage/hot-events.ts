// Hot events: rows a bulk import lands in the DuckDB events table (durable at its commit, read by every query
// through tableSource() like the hot visits) until compaction writes them to Parquet, one sorted file per site
// and month for many requests at once. Writing each 50,000-line request's events as a file per month it spans
// (~13 for a year of history) and merging those small files again tier by tier was most of an import's time.
import type { Param, Tx } from './database.ts';
import type { ParquetFile, ParquetManifest } from './parquet-layout.ts';
import { writePartition, type FileStats } from './parquet-writer.ts';
import { frag, sql } from './sql.ts';
import { STORED_EVENT_COLUMNS } from './marks.ts';

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

let flushSeq = 0;

/**
 * Writes the hot events (of `siteId`, or of every site) to Parquet files, one per site and month, appended to
 * `written`, and deletes them from the table, in the caller's transaction (writingFiles: the files become
 * visible when it commits). Returns the number of events written. The rows are sorted once into a temp table,
 * where each month is one contiguous stretch: the table keeps an import's rows in arrival order (visitor by
 * visitor), so every month's file picked from it by a time range decoded every hot row again, then sorted its
 * own; 13 months of a million rows cost ~9.3 s of CPU that way against ~6.8 s sorted once (bench/import.ts).
 */
export async function flushHotEvents(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId?: string): Promise<number> {
  const where = siteId === undefined ? frag('') : sql` WHERE site_id = ${siteId}`;
  const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*)::BIGINT AS n FROM events${where.sql}`, where.params as Param[]);
  if (!Number(n)) return 0;
  const sorted = `hot_flush_${++flushSeq}`;
  await tx.exec(`CREATE TEMP TABLE ${sorted} AS SELECT ${STORED_EVENT_COLUMNS} FROM events${where.sql} ORDER BY site_id, ts`, where.params as Param[]);
  try {
    const parts = await tx.query<FileStats & { site_id: string; month: string }>(
      `SELECT site_id, strftime(ts, '%Y-%m') AS month, count(*)::BIGINT AS rows, min(ts)::VARCHAR AS min_ts, max(ts)::VARCHAR AS max_ts
       FROM ${sorted} GROUP BY ALL ORDER BY ALL`);
    let rows = 0;
    for (const { site_id, month, ...stats } of parts) {
      const [from, to] = monthSpan(month);
      // The month's stretch of the sorted table: its zone maps skip the rest, and it is in time order already.
      await writePartition(tx, manifest, written, 'events', site_id, month,
        sql`SELECT * FROM ${frag(sorted)} WHERE site_id = ${site_id} AND ts >= ${from}::TIMESTAMP AND ts < ${to}::TIMESTAMP`,
        { ...stats, rows: Number(stats.rows) }, { presorted: true });
      rows += Number(stats.rows);
    }
    await tx.exec(`DELETE FROM events${where.sql}`, where.params as Param[]);
    return rows;
  } finally {
    await tx.exec(`DROP TABLE IF EXISTS ${sorted}`).catch(() => {});
  }
}
