// The metadata test files again, with every server keeping its metadata in PostgreSQL (DATABASE_URL): one
// private cluster, a fresh database per server (test/helpers/server.ts, TERN_TEST_POSTGRES), run as a child
// `bun test` so the same files, unchanged, check both stores. A representative set, not the whole suite.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { postgresUnavailable, startPostgres, type TestPostgres } from '../helpers/postgres.ts';

const root = join(import.meta.dir, '..', '..');
const FILES = [
  'test/accounts/accounts.test.ts',
  'test/accounts/organizations.test.ts',
  'test/sites/sites.test.ts',
  'test/sites/delete-site.test.ts',
  'test/keys/lifecycle.test.ts',
  'test/goals/goals-crud.test.ts',
  'test/goals/site-delete.test.ts',
  'test/funnels/funnels-crud.test.ts',
  'test/annotations/annotations.test.ts',
  'test/shares/shared-links.test.ts',
];

const unavailable = postgresUnavailable();
if (unavailable) console.log(unavailable);

let pg: TestPostgres | undefined;
beforeAll(async () => {
  if (!unavailable) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

test.skipIf(Boolean(unavailable))('the metadata test files pass with DATABASE_URL (accounts, orgs, sites, keys, goals, funnels, annotations, shares)', async () => {
  const child = Bun.spawn([process.execPath, 'test', '--timeout', '60000', ...FILES], {
    cwd: root,
    env: { ...process.env, TERN_TEST_POSTGRES: pg!.url },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  const report = out + err;
  if (code !== 0) console.log(report);
  expect(code).toBe(0);
  // Every file ran and none failed or was skipped on the way.
  expect(report).toMatch(new RegExp(`Ran \\d+ tests across ${FILES.length} files`));
  expect(Number(report.match(/(\d+) pass/)?.[1])).toBeGreaterThan(40);
  expect(report).toMatch(/\b0 fail\b/);
}, 600_000);
