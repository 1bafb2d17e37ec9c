// How the planner reads a site's stored rows on the scope's engine: DuckDB's hot table beside its Parquet
// files (tableSource), or the engine's own stored table (ClickHouse: its MergeTree table, loaded from the same files).
import { tableSource } from '../../storage/sources.ts';
import { TIME_COL, type ParquetManifest, type Table } from '../../storage/parquet-layout.ts';
import type { Fragment } from '../../storage/sql.ts';
import { dialectOf, type Dialect } from '../sql/dialect.ts';

/** What reading needs of a scope (plan/scope.ts): the site, the manifest and the engine's dialect. */
export type ReadScope = { site: { id: string }; files: ParquetManifest; dialect?: Dialect };

export function readRows(s: ReadScope, tbl: Table, range?: { fromUtc: string; toUtc: string }): Fragment {
  const d = dialectOf(s);
  return d.name === 'duckdb' ? tableSource(s.files, tbl, s.site.id, range) : d.stored(tbl, s.site.id, TIME_COL[tbl], range);
}
