// Where a site's rows live: its Parquet files plus the DuckDB table (open visits; events an import left there
// until compaction writes them, storage/hot-events.ts), as one FROM-able relation.
// Every analytics query reads through tableSource(), so the storage layout can change in one place.
import { TIME_COL, type ParquetManifest, type Table } from './parquet-layout.ts';
import { frag, sql, type Fragment } from './sql.ts';

/**
 * All rows of `table` for one site whose time column (events.ts / visits.start_ts) falls in
 * [fromUtc, toUtc) when given. Returned as a parenthesised subquery with bound parameters:
 * the table UNION ALL BY NAME the site's Parquet files whose time span overlaps the range.
 */
/** The hot rows of `table` for one site in the range (a parenthesised subquery): what tableSource() reads beside the files. */
export function hotRows(tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): Fragment {
  const time = frag(TIME_COL[tbl]);
  const inRange = range ? sql` AND ${time} >= ${range.fromUtc}::TIMESTAMP AND ${time} < ${range.toUtc}::TIMESTAMP` : frag('');
  return sql`(SELECT * FROM ${frag(tbl)} WHERE site_id = ${siteId}${inRange})`;
}

export function tableSource(files: ParquetManifest, tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): Fragment {
  const time = frag(TIME_COL[tbl]);
  const inRange = range ? sql` AND ${time} >= ${range.fromUtc}::TIMESTAMP AND ${time} < ${range.toUtc}::TIMESTAMP` : frag('');
  const hot = sql`SELECT * FROM ${frag(tbl)} WHERE site_id = ${siteId}${inRange}`;
  const paths = files.files(tbl, siteId, range);
  if (!paths.length) return sql`(${hot})`;
  return sql`(${hot} UNION ALL BY NAME SELECT * FROM read_parquet(${paths}::VARCHAR[]) WHERE true${inRange})`;
}
