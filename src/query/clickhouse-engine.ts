// ClickHouse as the analytics engine (ANALYTICS_ENGINE=clickhouse): statements rendered in its dialect and
// run through the official client on the tables Tern loads (storage/clickhouse/).
import type { ClickHouseStore } from '../storage/clickhouse/store.ts';
import type { Engine } from './sql/dialect.ts';
import { clickhouseDialect, renderClickHouse, type ObjectReads } from './sql/clickhouse-dialect.ts';

/** `objects`: read the Parquet objects listed in object storage with s3() instead of the tables (CLICKHOUSE_READ=objects). */
export function clickhouseEngine(store: Pick<ClickHouseStore, 'client' | 'database'>, objects?: ObjectReads): Engine {
  return {
    dialect: clickhouseDialect(store.database, objects),
    async query<T extends Record<string, any>>(text: string, params: Parameters<typeof renderClickHouse>[1] = []) {
      const { query, query_params } = renderClickHouse(text, params);
      return (await store.client.query({ query, query_params, format: 'JSONEachRow' })).json<T>();
    },
  };
}
