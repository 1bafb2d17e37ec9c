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

const hotWhere = (siteId?: string) => (siteId === undefined ? frag('') : sql` WHERE site_id = ${siteId}`);

/** The hot events per site and month (of `siteId`, or of every site), with each month's row count and time span. */
export function hotMonths(tx: Pick<Tx, 'query'>, siteId?: string) {
  const where = hotWhere(siteId);
  return tx.query<FileStats & { site_id: string; month: string }>(
    `SELECT site_id, strftime(ts, '%Y-%m') AS month, count(*)::BIGINT AS rows, min(ts)::VARCHAR AS min_ts, max(ts)::VARCHAR AS max_ts
     FROM events${where.sql} GROUP BY ALL ORDER BY ALL`, where.params as Param[]);
}

/** [start, end) of a 'YYYY-MM' month, as DuckDB timestamps' text. */
export function monthSpan(month: string): [string, string] {
  const [y, m] = month.split('-').map(Number);
  const next = new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 7);
  return [`${month}-01 00:00:00`, `${next}-01 00:00:00`];
}

let flushSeq = 0;

/**
 * Rows sorted at once while flushing: a slice of consecutive months. The hot table is not checkpointed (its rows
 * sit uncompressed in DuckDB's memory), so sorting all of a million beside it spilled to disk under a 1 GB
 * DUCKDB_MEMORY_LIMIT (one 11.7 s statement at load ~8); a quarter of that stays in memory.
 */
const SLICE_ROWS = 250_000;

/**
 * Writes the hot events (of `siteId`, or of every site) to Parquet files, one per site and month, appended to
 * `written`, and deletes them from the table, in the caller's transaction (writingFiles: the files become
 * visible when it commits). Returns the number of events written. The table keeps an import's rows in arrival
 * order (visitor by visitor), so every month's rows are spread over all of it: picking each month's file by a
 * time range decoded every hot row once per month (13 times for a year). Consecutive months are sorted
 * together into a temp table instead, a slice of about SLICE_ROWS rows at a time, and each month's file is its
 * stretch of the slice, already in time order. Ranges of ts are what DuckDB tests on that column alone while
 * scanning (a month computed per row read every column). The gain is small: bench/hot-flush.ts, a million rows,
 * 7.0–8.6 s of CPU against 8.0–8.8 s (load ~6); encoding the Parquet files is most of a flush.
 */
export async function flushHotEvents(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId?: string): Promise<number> {
  const rows = await writeHotFiles(tx, manifest, written, await hotMonths(tx, siteId));
  if (rows) await deleteHotEvents(tx, siteId);
  return rows;
}

/** flushHotEvents' files of the hot months `parts` (hotMonths), without deleting the rows they hold. */
export async function writeHotFiles(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], parts: Awaited<ReturnType<typeof hotMonths>>): Promise<number> {
  let rows = 0;
  for (const slice of slices(parts)) {
    const sorted = `hot_flush_${++flushSeq}`;
    const [from] = monthSpan(slice[0]!.month);
    const [, to] = monthSpan(slice[slice.length - 1]!.month);
    const site = slice[0]!.site_id;
    const fill = sql`CREATE TEMP TABLE ${frag(sorted)} AS SELECT ${frag(STORED_EVENT_COLUMNS)} FROM events
      WHERE site_id = ${site} AND ts >= ${from}::TIMESTAMP AND ts < ${to}::TIMESTAMP ORDER BY ts`;
    await tx.exec(fill.sql, fill.params);
    try {
      for (const { site_id, month, ...stats } of slice) {
        const [a, b] = monthSpan(month);
        await writePartition(tx, manifest, written, 'events', site_id, month,
          sql`SELECT * FROM ${frag(sorted)} WHERE ts >= ${a}::TIMESTAMP AND ts < ${b}::TIMESTAMP`,
          { ...stats, rows: Number(stats.rows) }, { presorted: true });
        rows += Number(stats.rows);
      }
    } finally {
      await tx.exec(`DROP TABLE IF EXISTS ${sorted}`).catch(() => {});
    }
  }
  return rows;
}

// Every change to hot rows goes through the three writers below, which count it themselves: a flush written aside
// from an older snapshot (hot-flush-aside.ts) would otherwise delete changed rows and keep their old values in its
// files (DuckDB reports no conflict between an UPDATE and a later DELETE of the same row, only between two DELETEs).
let edits = 0;

/** How many edits so far: the same count later means no hot row was changed or deleted in between. */
export const hotEventEdits = () => edits;

/** Deletes the hot events (of `siteId`, or of every site) the transaction sees. */
export async function deleteHotEvents(tx: Tx, siteId?: string) {
  edits++;
  const where = hotWhere(siteId);
  await tx.exec(`DELETE FROM events${where.sql}`, where.params as Param[]);
}

/** Deletes one visitor's hot events (an erasure); returns how many. */
export async function deleteVisitorHotEvents(tx: Pick<Tx, 'query'>, siteId: string, visitorId: number): Promise<number> {
  edits++;
  return (await tx.query('DELETE FROM events WHERE site_id = ? AND visitor_id = ?::BIGINT RETURNING 1 AS n', [siteId, visitorId])).length;
}

/** Hot events of the visits absorbed by a merge take the kept visit's ID (`merges`: a table of absorbed, kept). */
export async function retagHotVisits(tx: Pick<Tx, 'exec'>, siteId: string, merges: string) {
  edits++;
  await tx.exec(`UPDATE events SET visit_id = m.kept FROM ${merges} m WHERE events.site_id = ? AND events.visit_id = m.absorbed`, [siteId]);
}

/** `parts` (ordered by site and month) cut into runs of one site's consecutive months of about SLICE_ROWS rows. */
export function slices<T extends { site_id: string; rows: number | bigint }>(parts: T[]): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let n = 0;
  for (const p of parts) {
    if (cur.length && (cur[0]!.site_id !== p.site_id || n + Number(p.rows) > SLICE_ROWS)) {
      out.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(p);
    n += Number(p.rows);
  }
  if (cur.length) out.push(cur);
  return out;
}
