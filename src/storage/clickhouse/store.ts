// ClickHouse as Tern's analytics store (CLICKHOUSE_URL): the client, its tables created or migrated at start,
// and the mirror that loads every sealed Parquet batch into them. Opened by the server before its modules.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Database } from '../database.ts';
import type { ParquetManifest } from '../parquet-layout.ts';
import { openClickHouse, type ClickHouseOptions } from './client.ts';
import { migrateClickHouse } from './schema.ts';
import { ClickHouseMirror } from './mirror.ts';

export type ClickHouseStore = { client: ClickHouseClient; database: string; mirror: ClickHouseMirror; close(): Promise<void> };

export async function openClickHouseStore(db: Database, parquet: ParquetManifest, o: ClickHouseOptions): Promise<ClickHouseStore> {
  const client = openClickHouse(o, parquet.dataDir);
  await migrateClickHouse(client, db, o.database);
  const mirror = new ClickHouseMirror(db, parquet, client, o.database);
  return { client, database: o.database, mirror, close: () => client.close() };
}
