// How the planner reads a site's stored rows on the scope's engine: DuckDB's hot table beside its Parquet
// files (tableSource), or the engine's own stored table (ClickHouse: its MergeTree table, loaded from the same files).
import { tableSource } from '../../storage/sources.ts';
import type { Table } from '../../storage/parquet-layout.ts';
import { TIME_COL } from '../../storage/parquet-layout.ts';
import type { Fragment } from '../../storage/sql.ts';
import { dialectOf } from '../sql/dialect.ts';
import type { Scope } from './scope.ts';

export function readRows(s: Pick<Scope, 'files' | 'site' | 'dialect'>, tbl: Table, range?: { fromUtc: string; toUtc: string }): Fragment {
  const d = dialectOf(s);
  return d.name === 'duckdb' ? tableSource(s.files, tbl, s.site.id, range) : d.stored(tbl, s.site.id, TIME_COL[tbl], range);
}
