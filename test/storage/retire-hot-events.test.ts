// Migration 0006: event rows an older server left in the hot events table move to Parquet files at start,
// stay queryable, and the table is left empty.
import { afterAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { execStored, queryStored } from '../helpers/inspect-db.ts';

let srv: TestServer;
afterAll(async () => { await srv?.cleanup(); });

test('hot event rows from before 0006 move to Parquet per site and month and stay queryable', async () => {
  srv = await startServer();
  const a = await setupAccount(srv.url);
  await srv.stop();

  // What an older server left behind: two pageviews still in the hot table, 0006 not yet applied.
  await execStored(srv.dataDir, [
    ...[['2026-04-02 10:00:00', '/old-a'], ['2026-04-02 10:01:00', '/old-b']].map(([ts, path]): [string, any[]] => [
      `INSERT INTO events (ts, site_id, visitor_id, visit_id, event_type, url, hostname, path)
       VALUES (?::TIMESTAMP, ?, 7, 70, 'pageview', 'https://example.com' || ?, 'example.com', ?)`, [ts, a.site.id, path, path]]),
    `DELETE FROM schema_migrations WHERE name = '0006-events-in-parquet.sql'`,
  ]);

  srv = await startServer({ dataDir: srv.dataDir });
  // A filter makes the breakdown read the events themselves (not the per-slot counts).
  const filters = encodeURIComponent(JSON.stringify([{ dimension: 'hostname', operator: 'is', value: 'example.com' }]));
  const pages = await client(srv.url).get(`/api/v1/organizations/${a.orgId}/sites/${a.site.id}/analytics/pages?period=custom&from=2026-04-01&to=2026-04-30&filters=${filters}`, a.token);
  expect(pages.status).toBe(200);
  expect(pages.body.data.results.map((r: any) => [r.name, r.pageviews])).toEqual([['/old-a', 1], ['/old-b', 1]]);
  await srv.stop();

  expect(await queryStored(srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM events')).toEqual([{ n: 0 }]);
  expect(await queryStored(srv.dataDir, `SELECT tbl, month, rows FROM parquet_files WHERE site_id = ?`, [a.site.id])).toEqual([{ tbl: 'events', month: '2026-04', rows: 2 }]);
});
