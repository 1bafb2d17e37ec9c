// Where a site's rows live: its Parquet files plus the DuckDB table (open visits; the events table is
// always empty, the files' schema), as one FROM-able relation.
// Every analytics query reads through tableSource(), so the storage layout can change in one place.
import type { Param } from './database.ts';
import { TIME_COL, type ParquetManifest, type Table } from './parquet-layout.ts';

export type Fragment = { sql: string; params: Param[] };

/**
 * All rows of `table` for one site whose time column (events.ts / visits.start_ts) falls in
 * [fromUtc, toUtc) when given. Returned as a parenthesised subquery with bound parameters:
 * the table UNION ALL BY NAME the site's Parquet files whose time span overlaps the range.
 */
export function tableSource(files: ParquetManifest, tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): Fragment {
  const timeCol = TIME_COL[tbl];
  const rangeSql = range ? ` AND ${timeCol} >= ?::TIMESTAMP AND ${timeCol} < ?::TIMESTAMP` : '';
  const rangeParams: Param[] = range ? [range.fromUtc, range.toUtc] : [];
  const paths = files.files(tbl, siteId, range);
  if (!paths.length) return { sql: `(SELECT * FROM ${tbl} WHERE site_id = ?${rangeSql})`, params: [siteId, ...rangeParams] };
  return {
    sql: `(SELECT * FROM ${tbl} WHERE site_id = ?${rangeSql} UNION ALL BY NAME SELECT * FROM read_parquet(?::VARCHAR[]) WHERE true${rangeSql})`,
    params: [siteId, ...rangeParams, paths, ...rangeParams],
  };
}
