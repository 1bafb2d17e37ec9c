// Checks a server's object storage against its registry: waits until the bucket has settled, then (with
// the server stopped) asserts every registered file is in the bucket byte for byte, nothing else is, and
// manifest.json lists exactly those files.
import { expect } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectStore } from '../../src/storage/object-store.ts';
import { queryStored } from './inspect-db.ts';
import type { TestServer } from './server.ts';

export type Manifest = { published_at: string; files: { key: string; table: string; site_id: string; month: string; rows: number }[] };

export async function readManifest(store: ObjectStore): Promise<Manifest | undefined> {
  const bytes = await store.get('manifest.json');
  return bytes ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
}

/** Data object keys in the bucket (the manifest left out), sorted. */
export const dataKeys = async (store: ObjectStore) => (await store.list()).map((o) => o.key).filter((k) => k !== 'manifest.json').sort();

/** Resolves once the bucket's objects equal the manifest's list and stayed so for a second (with `check` true). */
export async function waitSettled(store: ObjectStore, check: (keys: string[]) => boolean = () => true, ms = 30_000) {
  const until = Date.now() + ms;
  let last = '';
  let since = 0;
  for (;;) {
    const keys: string[] = await dataKeys(store).catch(() => []);
    const listed = ((await readManifest(store).catch(() => undefined))?.files ?? []).map((f) => f.key).sort();
    const now = JSON.stringify(keys);
    const ok = now === JSON.stringify(listed) && check(keys);
    if (ok && now === last && Date.now() - since >= 1000) return keys;
    if (!ok || now !== last) { last = ok ? now : ''; since = Date.now(); }
    if (Date.now() > until) throw new Error(`bucket did not settle: ${keys.length} objects, manifest lists ${listed.length}`);
    await Bun.sleep(200);
  }
}

/** With the server stopped: the bucket holds exactly the registered files, byte-identical, and the manifest lists them. */
export async function expectMirrored(srv: TestServer, store: ObjectStore) {
  const files = await queryStored<{ path: string; tbl: string; site_id: string; month: string; rows: number }>(srv.dataDir, 'SELECT path, tbl, site_id, month, rows FROM parquet_files ORDER BY path');
  const keys = files.map((f) => f.path.replace(/^parquet\//, '')).sort();
  expect(await dataKeys(store)).toEqual(keys);
  for (const f of files) {
    expect(f.path).toMatch(new RegExp(`^parquet/${f.tbl}/site=${f.site_id}/month=${f.month}/[0-9a-f-]{36}\\.parquet$`));
    const remote = await store.get(f.path.replace(/^parquet\//, ''));
    expect(Buffer.compare(Buffer.from(remote!), readFileSync(join(srv.dataDir, f.path)))).toBe(0);
  }
  const m = (await readManifest(store))!;
  expect(m.files.map((f) => f.key).sort()).toEqual(keys);
  expect(m.files.reduce((n, f) => n + f.rows, 0)).toBe(files.reduce((n, f) => n + f.rows, 0));
  return files;
}
