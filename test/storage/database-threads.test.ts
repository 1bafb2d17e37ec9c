// Database.withThreads: DuckDB's thread limit holds for the work inside and is back to one per core after,
// also when the work fails (live loads run on one thread; queries must not stay limited).
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/storage/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'tern-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('withThreads limits DuckDB for the work inside and restores the default after, even when the work fails', async () => {
  const db = await Database.open(dir, 2, '256MB');
  try {
    const threads = async () => Number((await db.one<{ t: string }>(`SELECT current_setting('threads')::VARCHAR AS t`))!.t);
    const all = await threads();
    expect(all).toBeGreaterThanOrEqual(1);
    expect(await db.withThreads(1, threads)).toBe(1);
    expect(await threads()).toBe(all);
    await expect(db.withThreads(1, async () => { throw new Error('load failed'); })).rejects.toThrow('load failed');
    expect(await threads()).toBe(all);
  } finally {
    await db.close();
  }
});
