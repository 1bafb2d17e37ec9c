// Compaction publishes each step to the manifest at once: at every point of a run (hot visits moving to a file,
// small files merging into one), a query planned against the manifest counts each visit exactly once.
// A merge once published its new file, then awaited DuckDB's thread reset before retiring the files it
// replaced: a query planned in between read the merged file and its parts, and counted their visits twice.
import { afterAll, expect, test } from 'bun:test';
import { threeJuneFiles } from '../helpers/june-files.ts';
import { queryStored } from '../helpers/inspect-db.ts';
import { Database } from '../../src/storage/database.ts';
import { ParquetManifest } from '../../src/storage/parquet-layout.ts';
import { Compactor } from '../../src/storage/compaction.ts';
import { Serial } from '../../src/storage/serial.ts';
import { tableSource } from '../../src/storage/sources.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => { for (const c of cleanups) await c(); });

test('at every step of a compaction that moves visits and merges their files, each visit counts once', async () => {
  const { srv, site } = await threeJuneFiles();
  cleanups.push(() => srv.cleanup());
  expect(await queryStored(srv.dataDir, `SELECT count(*)::INTEGER AS n FROM parquet_files WHERE site_id = ? AND tbl = 'visits'`, [site])).toEqual([{ n: 3 }]);

  const db = await Database.open(srv.dataDir, 2, '512MB');
  try {
    const manifest = new ParquetManifest(srv.dataDir);
    await manifest.load(db);
    // A fourth closed visit, still hot: the run moves it to a fourth file, which makes the month's four files merge.
    const [first] = manifest.files('visits', site);
    await db.exec(`INSERT INTO visits BY NAME SELECT * EXCLUDE (month, site) REPLACE (visit_id + 1 AS visit_id, start_ts + INTERVAL 3 DAY AS start_ts, end_ts + INTERVAL 3 DAY AS end_ts)
      FROM read_parquet('${first!.replaceAll("'", "''")}')`);
    const counted = async () => {
      const src = tableSource(manifest, 'visits', site);
      return (await db.one<{ n: number; d: number }>(`SELECT count(*)::INTEGER AS n, count(DISTINCT visit_id)::INTEGER AS d FROM ${src.sql}`, src.params))!;
    };
    expect(await counted()).toEqual({ n: 4, d: 4 });

    // Between the run's own statements outside its transactions (thread settings, registry reads), as a query
    // would: plan against the manifest as it stands, then count.
    const seen: number[] = [];
    const observed = <F extends (...a: any[]) => Promise<any>>(fn: F) => (async (...a: any[]) => {
      seen.push((await counted()).n);
      return fn(...a);
    }) as F;
    const [exec, query] = [db.exec.bind(db), db.query.bind(db)];
    const out = await new Compactor(Object.assign(Object.create(db), { exec: observed(exec), query: observed(query) }), manifest, new Serial()).run();
    expect(out).toMatchObject({ files: 1, visits: 1, merged: 4 });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen).toEqual(seen.map(() => 4));
    expect(await counted()).toEqual({ n: 4, d: 4 });
    expect(manifest.files('visits', site)).toHaveLength(1);
  } finally {
    await db.close();
  }
}, 60_000);
