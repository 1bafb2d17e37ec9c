// A merge mirrored into ClickHouse (chdb in process) is never counted twice: the merged file is switched live in
// the same insert that retires the files it replaces, and reads count live files only, even while the retired
// rows still wait for their DELETE (made to fail here, as an unreachable server would).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { withTempStore } from '../../helpers/temp-store.ts';
import { CHDB, chdbClient, chRows, sayIfNoChdb } from '../../helpers/chdb.ts';
import { migrateClickHouse } from '../../../src/storage/clickhouse/schema.ts';
import { ClickHouseMirror } from '../../../src/storage/clickhouse/mirror.ts';
import { unregister, writePartition, writingFiles } from '../../../src/storage/parquet-writer.ts';
import { sqlPath } from '../../../src/storage/parquet-layout.ts';
import { clickhouseEngine } from '../../../src/query/clickhouse-engine.ts';
import { sql } from '../../../src/storage/sql.ts';

sayIfNoChdb('test/storage/clickhouse/merge-switch.test.ts');
const store = withTempStore('tern-ch-switch-');
const SITE = '6b0c3e1e-5a57-4d51-9a43-0d0c2f3a9b10';
let chDir: string;
let ch: ClickHouseClient;

/** Hot events for visitors `from`…`to`, one per visitor, in November 2026. */
async function hotEvents(from: number, to: number) {
  await store.db.exec(`INSERT INTO events (ts, site_id, visitor_id, visit_id, event_type, event_name, path)
    SELECT TIMESTAMP '2026-11-02 10:00:00' + to_minutes(i), ?, i, i, 'pageview', 'pageview', '/p' FROM range(${from}, ${to}) t(i)`, [SITE]);
}

/** Writes the hot events of visitors [from, to) as one registered file and returns its path. */
const fileOf = (from: number, to: number) => writingFiles(store.db, store.files, async (tx, written) => {
  const f = await writePartition(tx, store.files, written, 'events', SITE, '2026-11',
    `SELECT *, 0::BIGINT AS seen_prev, 0::BIGINT AS page_prev FROM events WHERE visitor_id >= ${from} AND visitor_id < ${to}`,
    { rows: to - from, min_ts: '2026-11-02 10:00:00', max_ts: '2026-11-02 20:00:00' });
  return f.path;
});

/** The events a report counts: the dialect's own read of the stored table. */
async function counted(): Promise<number> {
  const engine = clickhouseEngine({ client: ch, database: 'tern' });
  const q = sql`SELECT count() AS n FROM ${engine.dialect.stored('events', SITE, 'ts')}`;
  const [row] = await engine.query<{ n: string }>(q.sql, q.params);
  return Number(row!.n);
}
const stored = async () => Number((await chRows<{ n: string }>(ch, 'SELECT count() AS n FROM tern.events'))[0]!.n);

beforeAll(async () => {
  if (!CHDB) return;
  chDir = mkdtempSync(join(tmpdir(), 'tern-chdb-'));
  ch = chdbClient(chDir);
  await migrateClickHouse(ch, store.db, 'tern');
});
afterAll(async () => {
  await ch?.close();
  if (chDir) rmSync(chDir, { recursive: true, force: true });
});

describe.skipIf(!CHDB)('ClickHouse mirror across a merge', () => {
  test('the merged file replaces its sources in one step; retired rows never count, and are deleted once ClickHouse answers', async () => {
    await hotEvents(0, 30);
    const a = await fileOf(0, 10);
    const b = await fileOf(10, 30);
    const mirror = new ClickHouseMirror(store.db, store.files, ch, 'tern');
    await mirror.sync();
    expect(await counted()).toBe(30);

    // A merge: one file with both files' rows registered, the two unregistered, in one DuckDB transaction.
    const merged = await writingFiles(store.db, store.files, async (tx, written) => {
      const f = await writePartition(tx, store.files, written, 'events', SITE, '2026-11',
        `SELECT * FROM read_parquet([${sqlPath(store.files.abs(a))}, ${sqlPath(store.files.abs(b))}])`,
        { rows: 30, min_ts: '2026-11-02 10:00:00', max_ts: '2026-11-02 20:00:00' });
      await unregister(tx, [a, b]);
      return f.path;
    });
    store.files.remove([a, b]);

    // ClickHouse refuses every DELETE this round: the merged rows are in and the old ones still there.
    const command = ch.command.bind(ch);
    ch.command = (async (p: Parameters<typeof ch.command>[0]) => {
      if (/^DELETE/.test(p.query)) throw new Error('ClickHouse unreachable (test)');
      return command(p);
    }) as typeof ch.command;
    await expect(mirror.sync()).rejects.toThrow('unreachable');
    expect(await stored()).toBe(60);
    expect(await counted()).toBe(30);
    const files = await chRows<{ path: string; live: number }>(ch, 'SELECT path, live FROM tern.tern_files FINAL ORDER BY live, path');
    expect(files).toEqual([...[a, b].sort().map((path) => ({ path, live: 0 })), { path: merged, live: 1 }]);

    // The next round deletes what was retired.
    ch.command = command;
    await mirror.sync();
    expect(await stored()).toBe(30);
    expect(await counted()).toBe(30);
    expect(await chRows(ch, 'SELECT path, live FROM tern.tern_files FINAL')).toEqual([{ path: merged, live: 1 }]);
  }, 60_000);

  test('a file listed but not yet switched live (a crash mid-load) is not counted, and loads once on the next round', async () => {
    const before = await counted();
    await hotEvents(100, 105);
    const c = await fileOf(100, 105);
    // As a crashed round leaves it: listed, not live, its rows inserted.
    await ch.insert({ table: 'tern.tern_files', values: [{ path: c, tbl: 'events', live: 0 }], format: 'JSONEachRow' });
    await ch.insert({ table: 'tern.events', values: await jsonRows(c), format: 'JSONEachRow', clickhouse_settings: { insert_deduplication_token: c } });
    expect(await counted()).toBe(before);
    await new ClickHouseMirror(store.db, store.files, ch, 'tern').sync();
    expect(await counted()).toBe(before + 5);
    expect(await stored()).toBe(before + 5);
  }, 60_000);
});

/** A file's rows as the mirror inserts them (ClickHouse's JSON input), tagged with the file's path. */
async function jsonRows(path: string) {
  const rows = await store.db.query<{ j: string }>(`SELECT to_json(t)::VARCHAR AS j FROM (SELECT * REPLACE (strftime(ts, '%Y-%m-%d %H:%M:%S.%f') AS ts), ? AS _file FROM read_parquet(${sqlPath(store.files.abs(path))})) t`, [path]);
  return rows.map((r) => JSON.parse(r.j));
}
