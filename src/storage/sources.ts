// Where a site's rows live: its Parquet files plus the DuckDB table (open visits; events an import left there
// until compaction writes them, storage/hot-events.ts), as one FROM-able relation.
// Every analytics query reads through tableSource(), so the storage layout can change in one place.
import { readOptions, TIME_COL, type ParquetManifest, type Table } from './parquet-layout.ts';
import { frag, join, sql, type Fragment } from './sql.ts';

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

/** parquet-layout.ts's read options of `tbl`'s files, as a fragment. */
const byName = (tbl: Table) => frag(readOptions(tbl));

export function tableSource(files: ParquetManifest, tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): Fragment {
  const time = frag(TIME_COL[tbl]);
  const inRange = range ? sql` AND ${time} >= ${range.fromUtc}::TIMESTAMP AND ${time} < ${range.toUtc}::TIMESTAMP` : frag('');
  const hot = sql`SELECT * FROM ${frag(tbl)} WHERE site_id = ${siteId}${inRange}`;
  if (!range) {
    const paths = files.files(tbl, siteId);
    return paths.length ? sql`(${hot} UNION ALL BY NAME SELECT * FROM read_parquet(${paths}::VARCHAR[]${byName(tbl)}))` : sql`(${hot})`;
  }
  // A file whose stored time span lies wholly inside the range is read without the range's test: decoding the time
  // column and testing it cost more than the rest of a plain scan (10M events: ~120 ms of CPU, count(path) 207 → 80 ms).
  // Only the files at the range's edges keep it (row-group statistics still skip their other rows).
  const { inside, edges } = files.split(tbl, siteId, range);
  const parts = [hot];
  if (inside.length) parts.push(sql`SELECT * FROM read_parquet(${inside.map((f) => files.abs(f))}::VARCHAR[]${byName(tbl)})`);
  if (edges.length) parts.push(sql`SELECT * FROM read_parquet(${edges.map((f) => files.abs(f))}::VARCHAR[]${byName(tbl)}) WHERE true${inRange}`);
  return sql`(${join(parts, ' UNION ALL BY NAME ')})`;
}
