// The in-process fixture of the query-engine tests: an empty, migrated store (DuckDB and Parquet manifest) in a
// temp DATA_DIR, opened before the file's tests and closed and deleted after them.
import { afterAll, beforeAll } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/storage/database.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { ParquetManifest } from '../../src/storage/parquet-layout.ts';

/** Registers the file's beforeAll/afterAll; read the fields inside tests and hooks. */
export function withTempStore(prefix: string) {
  const store = {} as { dir: string; db: Database; files: ParquetManifest };
  beforeAll(async () => {
    store.dir = mkdtempSync(join(tmpdir(), prefix));
    store.db = await Database.open(store.dir, 2, '256MB');
    await migrate(store.db);
    store.files = new ParquetManifest(store.dir);
    await store.files.load(store.db);
  });
  afterAll(async () => {
    await store.db?.close();
    if (store.dir) rmSync(store.dir, { recursive: true, force: true });
  });
  return store;
}
