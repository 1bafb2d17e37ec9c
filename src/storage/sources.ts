// Where a site's rows live: the hot DuckDB table plus compacted Parquet files, as one FROM-able relation.
// Every analytics query reads through tableSource(), so the storage layout can change in one place.
import type { Param } from './database.ts';

export type Fragment = { sql: string; params: Param[] };
export type Table = 'events' | 'visits';

/**
 * All rows of `table` for one site whose time column (events.ts / visits.start_ts) falls in
 * [fromUtc, toUtc) when given. Returned as a parenthesised subquery with bound parameters.
 * PLACEHOLDER: reads the hot table only; compaction adds the Parquet files here.
 */
export function tableSource(table: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): Fragment {
  const timeCol = table === 'events' ? 'ts' : 'start_ts';
  const params: Param[] = [siteId];
  let where = 'site_id = ?';
  if (range) {
    where += ` AND ${timeCol} >= ?::TIMESTAMP AND ${timeCol} < ?::TIMESTAMP`;
    params.push(range.fromUtc, range.toUtc);
  }
  return { sql: `(SELECT * FROM ${table} WHERE ${where})`, params };
}
