// The orders registry (first occurrence of each order_id): filled by the loader, and on upgrade of a data
// directory from before it existed, backfilled from the hot rows and the compacted Parquet files alike.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { importLines, queryStored } from '../ingest/inspect-db.ts';

let srv: TestServer;
let a: Awaited<ReturnType<typeof setupAccount>>;

const purchase = (ts: string, uid: string, order_id: string, revenue: number) => ({
  url: 'https://example.com/checkout', timestamp: ts, visitor_uid: uid, user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
  event_type: 'purchase', event_name: 'Purchase', revenue, currency: 'USD', order_id,
});

const aprilRevenue = async () => {
  const r = await client(srv.url).get(`/api/v1/organizations/${a.orgId}/sites/${a.site.id}/analytics/revenue?period=custom&from=2026-04-01&to=2026-04-30`, a.token);
  expect(r.status).toBe(200);
  return r.body.data.metrics;
};

beforeAll(async () => {
  srv = await startServer();
  a = await setupAccount(srv.url);
  // O1 first in March, resent in April; O2 only in April. Old enough that stopping compacts them to Parquet.
  expect((await importLines(srv.url, a, [
    purchase('2026-03-10T10:00:00Z', 'p1', 'O1', 10),
    purchase('2026-04-02T10:00:00Z', 'p1', 'O1', 10),
    purchase('2026-04-03T10:00:00Z', 'p2', 'O2', 20),
  ])).body.data.imported).toBe(3);
});
afterAll(async () => { await srv.cleanup(); });

test('the loader records where each order id first appeared', async () => {
  expect(await aprilRevenue()).toMatchObject({ revenue: 20, orders: 1 });
  await srv.stop();
  expect(await queryStored(srv.dataDir, 'SELECT order_id, first_ts FROM orders WHERE site_id = ? ORDER BY order_id', [a.site.id])).toEqual([
    { order_id: 'O1', first_ts: '2026-03-10T10:00:00.000Z' },
    { order_id: 'O2', first_ts: '2026-04-03T10:00:00.000Z' },
  ]);
  expect((await queryStored<any>(srv.dataDir, `SELECT count(*)::INTEGER AS n FROM events WHERE site_id = ?`, [a.site.id]))[0].n).toBe(0);
});

test('a data directory from before the registry gets it backfilled from its Parquet files at start', async () => {
  const inst = await DuckDBInstance.create(join(srv.dataDir, 'tern.duckdb'));
  const c = await inst.connect();
  await c.run('DROP TABLE orders');
  await c.run(`DELETE FROM schema_migrations WHERE name = '0004-orders.sql'`);
  c.closeSync();
  inst.closeSync();

  srv = await startServer({ dataDir: srv.dataDir });
  // Without the backfill, O1's April resend would count as a new order (30 USD, 2 orders).
  expect(await aprilRevenue()).toMatchObject({ revenue: 20, orders: 1 });
});
