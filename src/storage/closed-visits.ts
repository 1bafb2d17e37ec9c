// Closed visits from the hot visits table to Parquet, one file per site and month, sorted by start. A migration
// leaves up to 500k visits hot (import-hold.ts), spread over every month in arrival (visitor) order: picking each
// month's rows through a join with the closed set scanned and hashed the whole table once per month (13 times for
// a year). As the hot-event flush does (hot-events.ts), consecutive months are sorted together, about a slice at a
// time, and each month's file is its stretch of the slice; the closed rows are told by end_ts, in the caller's
// transaction, so the files and the delete see the same rows.
import type { Param, Tx } from './database.ts';
import type { ParquetFile, ParquetManifest } from './parquet-layout.ts';
import { writePartition, type FileStats } from './parquet-writer.ts';
import { monthSpan, slices } from './hot-events.ts';
import { sql, frag } from './sql.ts';

let seq = 0;

/** Writes the visits that ended before `cutoffIso` to Parquet (appended to `written`) and deletes them; returns the files. */
export async function writeClosedVisits(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], cutoffIso: string): Promise<ParquetFile[]> {
  const parts = await tx.query<FileStats & { site_id: string; month: string }>(
    `SELECT site_id, strftime(start_ts, '%Y-%m') AS month, count(*)::BIGINT AS rows, min(start_ts)::VARCHAR AS min_ts, max(start_ts)::VARCHAR AS max_ts
     FROM visits WHERE end_ts < ?::TIMESTAMP GROUP BY ALL ORDER BY ALL`, [cutoffIso]);
  const out: ParquetFile[] = [];
  for (const slice of slices(parts)) {
    const sorted = `closed_visits_${++seq}`;
    const [from] = monthSpan(slice[0]!.month);
    const [, to] = monthSpan(slice[slice.length - 1]!.month);
    const fill = sql`CREATE TEMP TABLE ${frag(sorted)} AS SELECT * FROM visits
      WHERE site_id = ${slice[0]!.site_id} AND end_ts < ${cutoffIso}::TIMESTAMP AND start_ts >= ${from}::TIMESTAMP AND start_ts < ${to}::TIMESTAMP ORDER BY start_ts`;
    await tx.exec(fill.sql, fill.params as Param[]);
    try {
      for (const { site_id, month, ...stats } of slice) {
        const [a, b] = monthSpan(month);
        out.push(await writePartition(tx, manifest, written, 'visits', site_id, month,
          sql`SELECT * FROM ${frag(sorted)} WHERE start_ts >= ${a}::TIMESTAMP AND start_ts < ${b}::TIMESTAMP`,
          { ...stats, rows: Number(stats.rows) }, { presorted: true }));
      }
    } finally {
      await tx.exec(`DROP TABLE IF EXISTS ${sorted}`).catch(() => {});
    }
  }
  if (out.length) await tx.exec('DELETE FROM visits WHERE end_ts < ?::TIMESTAMP', [cutoffIso]);
  return out;
}
