// Migration 0007: a data directory from before engaged_path/engaged_hostname gets the columns, and its event
// files are rewritten with them (computed as ingestion does), so old and new files are read together.
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { importEvents } from '../helpers/fixture-events.ts';
import { execStored, queryStored } from '../helpers/inspect-db.ts';

let srv: TestServer;
afterAll(async () => { await srv?.cleanup(); });

test('event files without the engaged columns are rewritten with them and read beside new files', async () => {
  srv = await startServer();
  const a = await setupAccount(srv.url);
  await srv.stop();

  // What an older server left: an events file of one visit (/a, then /b reporting 30 s on /a), a table
  // without the columns, 0007 (and the later 0008) not applied.
  const rel = `parquet/events/site=${a.site.id}/month=2026-04/old.parquet`;
  mkdirSync(join(srv.dataDir, 'parquet/events', `site=${a.site.id}`, 'month=2026-04'), { recursive: true });
  await execStored(srv.dataDir, [
    'ALTER TABLE events DROP COLUMN engaged_path',
    'ALTER TABLE events DROP COLUMN engaged_hostname',
    'ALTER TABLE events DROP COLUMN seen_prev', 'ALTER TABLE events DROP COLUMN page_prev', 'DROP TABLE visitor_history', 'DROP TABLE marks_stale', 'DROP TABLE file_engagement',
    ...[['2026-04-02 10:00:00', '/a', null], ['2026-04-02 10:01:00', '/b', 30]].map(([ts, path, top]): [string, any[]] => [
      `INSERT INTO events (ts, site_id, visitor_id, visit_id, event_type, url, hostname, path, time_on_page)
       VALUES (?::TIMESTAMP, ?, 7, 70, 'pageview', 'https://example.com' || ?, 'example.com', ?, ?)`, [ts, a.site.id, path, path, top]]),
    `COPY (SELECT * FROM events) TO '${join(srv.dataDir, rel)}' (FORMAT parquet)`,
    'DELETE FROM events',
    [`INSERT INTO parquet_files VALUES (?, 'events', ?, '2026-04', 2, '2026-04-02 10:00:00', '2026-04-02 10:01:00', now()::TIMESTAMP)`, [rel, a.site.id]],
    `DELETE FROM schema_migrations WHERE name >= '0007'`,
  ]);

  srv = await startServer({ dataDir: srv.dataDir });
  const api = client(srv.url);
  await importEvents(srv.url, a, [{ at: '2026-04-03T10:00:00Z', uid: 'new', path: '/c' }]);
  const pages = await api.get(`/api/v1/organizations/${a.orgId}/sites/${a.site.id}/analytics/pages?period=custom&from=2026-04-01&to=2026-04-30`, a.token);
  expect(pages.status).toBe(200);
  expect(pages.body.data.results.map((r: any) => [r.name, r.pageviews, r.time_on_page])).toEqual([['/a', 1, 30], ['/b', 1, null], ['/c', 1, null]]);
  await srv.stop();

  expect(await queryStored(srv.dataDir, `SELECT count(*)::INTEGER AS n FROM parquet_files WHERE path = ?`, [rel])).toEqual([{ n: 0 }]);
  expect(await queryStored(srv.dataDir, `SELECT column_name FROM information_schema.columns WHERE table_name = 'events' AND column_name LIKE 'engaged%' ORDER BY 1`))
    .toEqual([{ column_name: 'engaged_hostname' }, { column_name: 'engaged_path' }]);
});
