// Every report's entry: its DuckDB statements read the stored rows of one state, the one of the Parquet file
// list it plans from (storage/snapshot.ts), so no visit a publication moves meanwhile is missed or counted twice.
import { consistentRead } from '../storage/snapshot.ts';
import type { QuerySources } from './parse/common-query.ts';

/**
 * `fn` with sources whose file list and DuckDB reads belong to one state. ClickHouse answers from its own
 * tables (its sources are left as they are).
 */
export function pinned<T>(src: QuerySources, fn: (src: QuerySources) => Promise<T>): Promise<T> {
  if (src.engine) return fn(src);
  return consistentRead(src.db, src.files, (files, reader) => fn({ ...src, files, snapshot: reader }));
}
