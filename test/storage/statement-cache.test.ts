// Reused prepared statements (the server's Database): new values give new answers, the same text run twice at
// once on one connection keeps each run's values, a changed table is rebound, and a file list bound as a
// parameter is read anew on each run.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/storage/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'tern-statements-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a reused statement answers for the values and the table of each run', async () => {
  const db = await Database.open(dir, 1, '256MB', { reuseStatements: true });
  try {
    await db.exec('CREATE TABLE t (k VARCHAR, n INTEGER)');
    await db.exec(`INSERT INTO t VALUES ('a', 1), ('a', 2), ('b', 5)`);
    const SUM = 'SELECT coalesce(sum(n), 0)::INTEGER AS s FROM t WHERE k = ?';
    const sum = async (k: string) => (await db.one<{ s: number }>(SUM, [k]))!.s;
    expect(await sum('a')).toBe(3);
    expect(await sum('b')).toBe(5);
    await db.exec(`INSERT INTO t VALUES ('a', 10)`);
    expect(await sum('a')).toBe(13);

    // One connection (a transaction's): a run of the same text started while another is pending gets its own
    // statement instead of binding the running one.
    const many = await db.transaction((tx) => Promise.all(['a', 'b', 'a', 'c', 'b'].map(async (k) => (await tx.query<{ s: number }>(SUM, [k]))[0]!.s)));
    expect(many).toEqual([13, 5, 13, 0, 5]);

    // The table replaced under the cached plan: DuckDB rebinds it to the new columns.
    await db.exec('DROP TABLE t');
    await db.exec('CREATE TABLE t (n INTEGER, k VARCHAR, extra INTEGER)');
    await db.exec(`INSERT INTO t VALUES (7, 'a', 0)`);
    expect(await sum('a')).toBe(7);
  } finally {
    await db.close();
  }
});

test('a reused statement over a bound file list reads the files of each run', async () => {
  const db = await Database.open(join(dir, 'files'), 1, '256MB', { reuseStatements: true });
  try {
    const one = join(dir, 'one.parquet');
    const two = join(dir, 'two.parquet');
    await db.exec(`COPY (SELECT range AS n FROM range(3)) TO '${one}' (FORMAT parquet)`);
    await db.exec(`COPY (SELECT range AS n FROM range(100, 110)) TO '${two}' (FORMAT parquet)`);
    const COUNT = 'SELECT count(*)::INTEGER AS c, coalesce(max(n), -1)::INTEGER AS m FROM read_parquet(?::VARCHAR[]) WHERE n >= ?';
    expect(await db.one(COUNT, [[one], 0])).toEqual({ c: 3, m: 2 });
    expect(await db.one(COUNT, [[one, two], 0])).toEqual({ c: 13, m: 109 });
    expect(await db.one(COUNT, [[two], 105])).toEqual({ c: 5, m: 109 });
  } finally {
    await db.close();
  }
});
