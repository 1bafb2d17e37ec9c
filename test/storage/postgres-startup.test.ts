// DATABASE_URL at start: a malformed or unreachable one stops the server with one line; a DATA_DIR whose
// metadata lives in one store is refused by the other (never read as "every site deleted").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { createDatabase, postgresUnavailable, startPostgres, type TestPostgres } from '../helpers/postgres.ts';

const unavailable = postgresUnavailable();
if (unavailable) console.log(unavailable);

/** The server's refusal: it exits 1, and its last line says why. */
async function refusal(env: Record<string, string>, dataDir?: string): Promise<string> {
  const e = await startServer({ env, dataDir }).then(
    async (srv) => {
      await srv.cleanup();
      throw new Error('the server started');
    },
    (e: Error) => e,
  );
  expect(e.message).toMatch(/^server exited 1:/);
  return e.message.trim().split('\n').at(-1)!;
}

test('a DATABASE_URL that is not a PostgreSQL URL: one line naming the variable', async () => {
  expect(await refusal({ DATABASE_URL: 'mysql://root@localhost/tern' })).toBe(
    'tern: Invalid configuration: DATABASE_URL: must be a PostgreSQL URL such as postgres://user:password@host:5432/tern',
  );
});

test('an unreachable PostgreSQL: one line, without the password', async () => {
  const line = await refusal({ DATABASE_URL: 'postgres://tern:s3cret@127.0.0.1:1/tern' });
  expect(line).toMatch(/^tern: DATABASE_URL: cannot connect to PostgreSQL: /);
  expect(line).not.toContain('s3cret');
});

describe.skipIf(Boolean(unavailable))('a DATA_DIR keeps its metadata where it started', () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });

  test('DuckDB metadata is not switched to PostgreSQL, nor the other way', async () => {
    const duck = mkdtempSync(join(tmpdir(), 'tern-test-'));
    const shared = mkdtempSync(join(tmpdir(), 'tern-test-'));
    try {
      const local = await startServer({ dataDir: duck, env: { DATABASE_URL: '' } });
      await setupAccount(local.url);
      await local.stop();
      const url = await createDatabase(pg, 'home');
      expect(await refusal({ DATABASE_URL: url }, duck)).toBe(
        'tern: DATA_DIR keeps its metadata in DuckDB: moving it to PostgreSQL is not supported; start with an empty DATA_DIR or without DATABASE_URL',
      );
      const node = await startServer({ dataDir: shared, env: { DATABASE_URL: url } });
      await setupAccount(node.url);
      await node.stop();
      expect(await refusal({ DATABASE_URL: '' }, shared)).toBe('tern: DATA_DIR keeps its metadata in PostgreSQL: set DATABASE_URL');
    } finally {
      rmSync(duck, { recursive: true, force: true });
      rmSync(shared, { recursive: true, force: true });
    }
  }, 60_000);
});
