// Every report's entry: its DuckDB statements read one snapshot of the stored rows, and plan from the Parquet
// file list copied with it (storage/snapshot.ts), so no file published meanwhile is missed or counted twice.
import { withSnapshot } from '../storage/snapshot.ts';
import type { QuerySources } from './parse/common-query.ts';

/**
 * `fn` with sources whose file list and DuckDB reads belong to one state. ClickHouse answers from its own
 * tables (its sources are left as they are).
 */
export function pinned<T>(src: QuerySources, fn: (src: QuerySources) => Promise<T>): Promise<T> {
  if (src.engine) return fn(src);
  return withSnapshot(src.db, src.files, (s) => fn({ ...src, files: s.files, snapshot: s }));
}
