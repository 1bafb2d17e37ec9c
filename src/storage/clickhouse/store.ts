// ClickHouse as Tern's analytics store (CLICKHOUSE_URL): the client, its tables created or migrated at start,
// and the mirror that loads every sealed Parquet batch into them. Opened by the server before its modules.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Database } from '../database.ts';
import type { ParquetManifest } from '../parquet-layout.ts';
import { openClickHouse, type ClickHouseOptions } from './client.ts';
import { migrateClickHouse } from './schema.ts';
import { ClickHouseMirror } from './mirror.ts';
import { ObjectListing } from './object-listing.ts';
import { ObjectStore, type ObjectStoreOptions } from '../object-store.ts';

/** `objects`: with CLICKHOUSE_READ=objects, the files listed in object storage, which queries read with s3(). */
export type ClickHouseStore = { client: ClickHouseClient; database: string; mirror: ClickHouseMirror; objects?: ObjectListing; close(): Promise<void> };

export async function openClickHouseStore(db: Database, parquet: ParquetManifest, o: ClickHouseOptions & { read: 'tables' | 'objects' }, objectStorage?: ObjectStoreOptions & { readPrefixes?: string[] }): Promise<ClickHouseStore> {
  const client = openClickHouse(o, parquet.dataDir);
  await migrateClickHouse(client, db, o.database, o.cluster);
  const mirror = new ClickHouseMirror(db, parquet, client, o.database, o.cluster);
  const objects = o.read === 'objects' && objectStorage ? new ObjectListing((objectStorage.readPrefixes ?? [objectStorage.prefix]).map((prefix) => new ObjectStore({ ...objectStorage, prefix }))) : undefined;
  await objects?.start();
  return { client, database: o.database, mirror, objects, close: async () => { objects?.stop(); await client.close(); } };
}
