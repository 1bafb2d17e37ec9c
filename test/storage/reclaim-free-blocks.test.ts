// A database file that is mostly free blocks is copied into a compact one at start; everything in it stays,
// constraints included, and a file with little free space, or a stray copy from a crash, is handled.
import { afterAll, expect, test } from 'bun:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const dataDir = mkdtempSync(join(tmpdir(), 'tern-reclaim-'));
const file = join(dataDir, 'tern.duckdb');
let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); });

/** ~150 MB written and deleted again, as an import's churn leaves it: the file keeps its size. */
async function bloat() {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  await c.run(`CREATE TABLE churn AS SELECT range AS n, repeat(md5(range::VARCHAR), 4) AS s FROM range(1500000)`);
  await c.run('CHECKPOINT');
  await c.run('DROP TABLE churn');
  await c.run('CHECKPOINT');
  c.closeSync();
  instance.closeSync();
}

/** The file's tables and constraints, read with the server stopped. */
async function schemaOf() {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  const rows = (await c.runAndReadAll(`SELECT table_name, constraint_type, constraint_text FROM duckdb_constraints() ORDER BY ALL`)).getRowObjectsJS();
  c.closeSync();
  instance.closeSync();
  expect(rows.filter((r) => r.constraint_type === 'PRIMARY KEY').length).toBeGreaterThan(10);
  return rows;
}

test('free blocks are returned to the disk at start; data, sessions and constraints survive', async () => {
  srv = await startServer({ dataDir });
  const acc = await setupAccount(srv.url);
  // The client of whichever server runs now (each start gets a new port).
  const api = () => client(srv!.url);
  const site = `/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}`;
  for (const path of ['/a', '/b', '/c']) {
    const r = await fetch(`${srv.url}/api/v1/event`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      body: JSON.stringify({ site_id: acc.site.public_id, url: `https://example.com${path}` }),
    });
    expect(r.status).toBe(202);
  }
  const stats = async () => (await api().get(`${site}/analytics/stats?period=day`, acc.token)).body.data.metrics;
  for (let i = 0; i < 100 && (await stats()).pageviews !== 3; i++) await Bun.sleep(50);
  const before = await stats();
  expect(before.pageviews).toBe(3);
  expect((await api().post(`${site}/annotations`, { date: '2026-01-01', text: 'kept' }, acc.token)).status).toBe(201);
  await srv.stop();

  const schema = await schemaOf();
  await bloat();
  const bloated = statSync(file).size;
  expect(bloated).toBeGreaterThan(100 * 1024 * 1024);

  srv = await startServer({ dataDir });
  expect(srv.logs()).toContain('database file compacted');
  expect(statSync(file).size).toBeLessThan(bloated / 4);
  // The session token issued before is still valid, the events and the annotation are there.
  expect(await stats()).toEqual(before);
  const notes = (await api().get(`${site}/annotations`, acc.token)).body.data.annotations;
  expect(notes.map((n: { text: string }) => n.text)).toEqual(['kept']);
  // New writes land in the compact file.
  const r = await fetch(`${srv.url}/api/v1/event`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify({ site_id: acc.site.public_id, url: 'https://example.com/d' }),
  });
  expect(r.status).toBe(202);
  for (let i = 0; i < 100 && (await stats()).pageviews !== 4; i++) await Bun.sleep(50);
  expect((await stats()).pageviews).toBe(4);
  await srv.stop();
  // Every table with its keys, unique and not-null constraints came along.
  expect(await schemaOf()).toEqual(schema);

  // Little free space: the file is left as it is. A stray copy from a crash mid-copy is removed.
  writeFileSync(`${file}.compact`, 'half a copy');
  const compact = statSync(file).size;
  srv = await startServer({ dataDir });
  expect(srv.logs()).not.toContain('database file compacted');
  expect(existsSync(`${file}.compact`)).toBe(false);
  expect(statSync(file).size).toBeLessThanOrEqual(compact + 4 * 1024 * 1024);
  expect((await stats()).pageviews).toBe(4);
}, 120_000);
