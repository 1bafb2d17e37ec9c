// A query's snapshot (storage/snapshot.ts) keeps reading what it was pinned to while compaction moves its hot
// visits to a file and merges the files it listed, and the merged-away files stay on disk until it is done,
// past their grace period: a query planned against the old list never fails on a missing file.
import { afterAll, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { startServer } from '../helpers/server.ts';
import { threeJuneFiles } from '../helpers/june-files.ts';
import { Database } from '../../src/storage/database.ts';
import { ParquetManifest } from '../../src/storage/parquet-layout.ts';
import { Compactor } from '../../src/storage/compaction.ts';
import { Serial } from '../../src/storage/serial.ts';
import { tableSource } from '../../src/storage/sources.ts';
import { Snapshot } from '../../src/storage/snapshot.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => { for (const c of cleanups) await c(); });

async function until(cond: () => boolean, ms = 5_000) {
  for (const end = Date.now() + ms; !cond() && Date.now() < end;) await Bun.sleep(10);
  return cond();
}

test('a snapshot reads the files and hot rows it was pinned to across a compaction, and its files outlive the grace period until it ends', async () => {
  const { srv, site } = await threeJuneFiles();
  cleanups.push(() => srv.cleanup());

  const db = await Database.open(srv.dataDir, 4, '512MB');
  try {
    const manifest = new ParquetManifest(srv.dataDir);
    await manifest.load(db);
    const parts = manifest.files('visits', site);
    expect(parts).toHaveLength(3);
    // A fourth closed visit, still hot: the run moves it to a fourth file, and the month's four files merge.
    await db.exec(`INSERT INTO visits BY NAME SELECT * EXCLUDE (month, site) REPLACE (visit_id + 1 AS visit_id, start_ts + INTERVAL 3 DAY AS start_ts, end_ts + INTERVAL 3 DAY AS end_ts)
      FROM read_parquet('${parts[0]!.replaceAll("'", "''")}')`);
    const counted = async (s: Snapshot) => {
      const src = tableSource(s.files, 'visits', site);
      return (await s.one<{ n: number; d: number }>(`SELECT count(*)::INTEGER AS n, count(DISTINCT visit_id)::INTEGER AS d FROM ${src.sql}`, src.params))!;
    };

    const before = await Snapshot.open(db, manifest);
    expect(await counted(before)).toEqual({ n: 4, d: 4 });
    // No grace period: only the open snapshot keeps the merged-away files.
    const out = await new Compactor(db, manifest, new Serial(), { graceMs: 0 }).run();
    expect(out).toMatchObject({ files: 1, visits: 1, merged: 4 });
    expect(manifest.files('visits', site)).toHaveLength(1);
    await Bun.sleep(200);
    expect(parts.every((p) => existsSync(p))).toBe(true);
    // Pinned before the run: the three old files and the hot visit, which the run moved away, still count once each.
    expect(before.files.files('visits', site)).toEqual(parts);
    expect(await counted(before)).toEqual({ n: 4, d: 4 });

    const after = await Snapshot.open(db, manifest);
    expect(after.files.files('visits', site)).toHaveLength(1);
    expect(await counted(after)).toEqual({ n: 4, d: 4 });
    after.close();
    await Bun.sleep(100);
    // A later snapshot's end does not free files an earlier one may read.
    expect(parts.every((p) => existsSync(p))).toBe(true);

    before.close();
    expect(await until(() => parts.every((p) => !existsSync(p)))).toBe(true);
  } finally {
    await db.close();
  }
}, 60_000);

test('statements issued side by side in one snapshot see the state it was pinned to, also after a publication', async () => {
  const srv = await startServer();
  cleanups.push(() => srv.cleanup());
  await srv.stop();
  const db = await Database.open(srv.dataDir, 4, '512MB');
  try {
    const manifest = new ParquetManifest(srv.dataDir);
    await manifest.load(db);
    await db.exec(`CREATE TABLE snap_probe (n INTEGER)`);
    await db.exec(`INSERT INTO snap_probe VALUES (1)`);
    const s = await Snapshot.open(db, manifest);
    const count = async (x: Snapshot) => (await x.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM snap_probe`))!.n;
    expect(await Promise.all([count(s), count(s), count(s)])).toEqual([1, 1, 1]);
    // A publication (a commit through the gate, as a load or compaction makes) after the pin: statements issued
    // side by side may no longer pin more connections (they would see the new row), and queue on the first.
    await db.transaction(async (tx) => { await tx.exec(`INSERT INTO snap_probe VALUES (2)`); }, () => {});
    expect(await Promise.all([count(s), count(s), count(s), count(s)])).toEqual([1, 1, 1, 1]);
    s.close();
    const t = await Snapshot.open(db, manifest);
    expect(await Promise.all([count(t), count(t)])).toEqual([2, 2]);
    t.close();
  } finally {
    await db.close();
  }
}, 60_000);
