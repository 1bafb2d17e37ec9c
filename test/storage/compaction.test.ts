// Compaction: events load straight into Parquet and closed visits follow (per site and month), small files merge, orphans go,
// site deletion removes files, and tableSource() reads hot rows and Parquet files as one.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { client, setupAccount } from '../helpers/api.ts';
import { queryStored, storedRelation } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';
import { Database } from '../../src/storage/database.ts';
import { ParquetManifest } from '../../src/storage/parquet-layout.ts';
import { tableSource } from '../../src/storage/sources.ts';

const recent = new Date(Date.now() - 60_000).toISOString();

const line = (ts: string, uid: string, path = '/') => ({ url: `https://example.com${path}`, timestamp: ts, visitor_uid: uid, user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' });

const fx = withServer({ accounts: { a: {}, b: {} } });
beforeAll(async () => {
  // Site A: March and April 2026, plus one visit from a minute ago (still open: stays hot).
  expect((await importLines(fx.srv.url, fx.a, [
    line('2026-03-10T10:00:00Z', 'a1'), line('2026-03-10T10:05:00Z', 'a1', '/two'),
    line('2026-03-31T23:50:00Z', 'a2'), line('2026-04-01T00:10:00Z', 'a2', '/april'),
    line(recent, 'a3'),
  ])).body.data.imported).toBe(5);
  // Site B: five small imports into one month, enough to trigger a merge.
  for (let i = 0; i < 5; i++) {
    expect((await importLines(fx.srv.url, fx.b, [line(`2026-05-0${i + 1}T12:00:00Z`, `b${i}`), line(`2026-05-0${i + 1}T12:01:00Z`, `b${i}`)])).status).toBe(200);
  }
});

test('events go to Parquet as they load; closed visits leave the hot table; files are partitioned by site and month', async () => {
  await fx.srv.stop();
  const files = await queryStored<any>(fx.srv.dataDir, `SELECT tbl, site_id, month, rows, path FROM parquet_files WHERE site_id = ? ORDER BY tbl, month`, [fx.a.site.id]);
  expect(files.map((f) => [f.tbl, f.month, f.rows])).toEqual([
    ['events', '2026-03', 3], ['events', '2026-04', 1], ['events', recent.slice(0, 7), 1], ['visits', '2026-03', 2],
  ]);
  for (const f of files) {
    expect(f.path).toMatch(new RegExp(`^parquet/${f.tbl}/site=${fx.a.site.id}/month=${f.month}/[0-9a-f-]{36}\\.parquet$`));
    expect(existsSync(join(fx.srv.dataDir, f.path))).toBe(true);
  }
  expect(await queryStored<any>(fx.srv.dataDir, `SELECT count(*)::INTEGER AS n FROM events WHERE site_id = ?`, [fx.a.site.id])).toEqual([{ n: 0 }]);
  // The visit from a minute ago is still open: it stays hot, where the next batch can extend it.
  expect(await queryStored<any>(fx.srv.dataDir, `SELECT entry_page FROM visits WHERE site_id = ?`, [fx.a.site.id])).toEqual([{ entry_page: '/' }]);
  const all = await queryStored<any>(fx.srv.dataDir, `SELECT count(*)::INTEGER AS n, count(DISTINCT visit_id)::INTEGER AS v FROM ${await storedRelation(fx.srv.dataDir, 'events')} WHERE site_id = ?`, [fx.a.site.id]);
  expect(all).toEqual([{ n: 5, v: 3 }]);
});

test('many small files of a month are merged into one, rows unchanged', async () => {
  const files = await queryStored<any>(fx.srv.dataDir, `SELECT tbl, rows FROM parquet_files WHERE site_id = ? ORDER BY tbl`, [fx.b.site.id]);
  expect(files.filter((f) => f.tbl === 'events').length).toBeLessThan(5);
  expect(files.filter((f) => f.tbl === 'events').reduce((s, f) => s + f.rows, 0)).toBe(10);
  expect(files.filter((f) => f.tbl === 'visits').reduce((s, f) => s + f.rows, 0)).toBe(5);
  const dir = join(fx.srv.dataDir, 'parquet/events', `site=${fx.b.site.id}`, 'month=2026-05');
  expect(readdirSync(dir).length).toBe(files.filter((f) => f.tbl === 'events').length);
  // A merged file keeps the events schema: the directory's month and site are not copied in as columns.
  const merged = readdirSync(dir).map((f) => `'${join(dir, f)}'`).join(', ');
  const cols = await queryStored<{ name: string }>(fx.srv.dataDir, `SELECT DISTINCT name FROM parquet_schema([${merged}]) WHERE name IN ('month', 'site')`);
  expect(cols).toEqual([]);
});

test('merges go by tier: files of similar size merge together, a bigger file is not rewritten with small ones', async () => {
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  const c = await setupAccount(fx.srv.url);
  const burst = (i: number, n: number) => Array.from({ length: n }, (_, k) => line(`2026-06-${String(i + 1).padStart(2, '0')}T12:${String(k).padStart(2, '0')}:00Z`, `c${n}-${i}`));
  // Four 1-event imports merge into one 4-event file; four 12-event imports then merge into one 48-event file.
  for (let i = 0; i < 4; i++) expect((await importLines(fx.srv.url, c, burst(i, 1))).status).toBe(200);
  for (let i = 0; i < 4; i++) expect((await importLines(fx.srv.url, c, burst(10 + i, 12))).status).toBe(200);
  await fx.srv.stop();
  const files = await queryStored<any>(fx.srv.dataDir, `SELECT rows FROM parquet_files WHERE site_id = ? AND tbl = 'events' ORDER BY rows`, [c.site.id]);
  expect(files.map((f) => f.rows)).toEqual([4, 48]);
});

test('a merged file is in time order: successive files streamed in time order, overlapping ones sorted', async () => {
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  const [d, e] = [await setupAccount(fx.srv.url), await setupAccount(fx.srv.url)];
  const at = (day: number, hour: number) => `2026-07-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;
  // d: four imports of successive days, imported latest first (the files' creation order is not their time order).
  for (let i = 3; i >= 0; i--) expect((await importLines(fx.srv.url, d, [line(at(i + 1, 10), `d${i}`), line(at(i + 1, 11), `d${i}`, '/b')])).status).toBe(200);
  // e: four imports that each span the month, so their times interleave.
  for (let i = 0; i < 4; i++) expect((await importLines(fx.srv.url, e, [line(at(1 + i, 8), `e${i}`), line(at(20 + i, 8), `e${i}`, '/b')])).status).toBe(200);
  await fx.srv.stop();
  for (const acct of [d, e]) {
    const files = await queryStored<any>(fx.srv.dataDir, `SELECT path, rows FROM parquet_files WHERE site_id = ? AND tbl = 'events'`, [acct.site.id]);
    expect(files.map((f) => f.rows)).toEqual([8]);
    const ts = await queryStored<{ ts: string }>(fx.srv.dataDir,
      `SELECT ts::VARCHAR AS ts FROM read_parquet('${join(fx.srv.dataDir, files[0].path)}', file_row_number = true) ORDER BY file_row_number`);
    expect(ts.map((r) => r.ts)).toEqual(ts.map((r) => r.ts).sort());
    expect(new Set(ts.map((r) => r.ts)).size).toBe(8);
  }
});

test('tableSource() reads hot rows and Parquet files together, pruned by range', async () => {
  const db = await Database.open(fx.srv.dataDir, 1, '1GB');
  try {
    const m = new ParquetManifest(fx.srv.dataDir);
    await m.load(db);
    const count = async (tbl: 'events' | 'visits', range?: { fromUtc: string; toUtc: string }) => {
      const src = tableSource(m, tbl, fx.a.site.id, range);
      return (await db.one<{ n: number }>(`SELECT count(*) AS n FROM ${src.sql}`, src.params))!.n;
    };
    expect(await count('events')).toBe(5);
    expect(await count('visits')).toBe(3);
    expect(await count('events', { fromUtc: '2026-04-01T00:00:00Z', toUtc: '2026-05-01T00:00:00Z' })).toBe(1);
    expect(await count('events', { fromUtc: '2026-03-10T10:05:00Z', toUtc: '2026-04-01T00:00:00Z' })).toBe(2);
    expect(await count('visits', { fromUtc: '2026-03-01T00:00:00Z', toUtc: '2026-04-01T00:00:00Z' })).toBe(2);
    expect(m.files('events', fx.a.site.id, { fromUtc: '2026-04-01T00:00:00Z', toUtc: '2026-05-01T00:00:00Z' })).toHaveLength(1);
    const v = tableSource(m, 'visits', fx.a.site.id);
    const row = await db.one<any>(`SELECT * FROM ${v.sql} WHERE entry_page = '/' AND start_ts < '2026-03-11' `, v.params);
    expect(row).toMatchObject({ pageviews: 2, exit_page: '/two', duration: 300, is_bounce: false });
  } finally {
    await db.close();
  }
});

test('orphan files are removed at start; a deleted site takes its files along', async () => {
  const orphanDir = join(fx.srv.dataDir, 'parquet/events', `site=${fx.a.site.id}`, 'month=2026-03');
  mkdirSync(orphanDir, { recursive: true });
  writeFileSync(join(orphanDir, 'orphan.parquet'), 'not really parquet');
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  expect(existsSync(join(orphanDir, 'orphan.parquet'))).toBe(false);
  expect(readdirSync(orphanDir)).toHaveLength(1);

  const del = await client(fx.srv.url).del(`/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}`, fx.a.token);
  expect(del.status).toBe(200);
  expect(existsSync(join(fx.srv.dataDir, 'parquet/events', `site=${fx.a.site.id}`))).toBe(false);
  expect(existsSync(join(fx.srv.dataDir, 'parquet/visits', `site=${fx.a.site.id}`))).toBe(false);
  await fx.srv.stop();
  expect(await queryStored(fx.srv.dataDir, 'SELECT * FROM parquet_files WHERE site_id = ?', [fx.a.site.id])).toEqual([]);
  expect((await queryStored<any>(fx.srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM parquet_files WHERE site_id = ?', [fx.b.site.id]))[0].n).toBeGreaterThan(0);
});
