// The registries that summarise events — purchases (every event that carried revenue) and event_counts
// (pageviews and events per 15-minute slot): filled by the loader, and on upgrade of a data directory from
// before they existed, backfilled from the hot rows and the compacted Parquet files alike.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { execStored, queryStored } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';


const purchase = (ts: string, uid: string, order_id: string, revenue: number) => ({
  url: 'https://example.com/checkout', timestamp: ts, visitor_uid: uid, user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
  event_type: 'purchase', event_name: 'Purchase', revenue, currency: 'USD', order_id,
});

const pageview = (ts: string, uid: string) => ({ url: 'https://example.com/', timestamp: ts, visitor_uid: uid, user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' });

const april = (endpoint: string, extra = '') => client(fx.srv.url).get(`/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/analytics/${endpoint}?period=custom&from=2026-04-01&to=2026-04-30${extra}`, fx.a.token);

/** The per-slot counts as stored. */
const storedSlots = async () => queryStored(fx.srv.dataDir, `SELECT slot, pageviews, events FROM event_counts WHERE site_id = ? ORDER BY slot`, [fx.a.site.id]);

const aprilRevenue = async () => {
  const r = await april('revenue');
  expect(r.status).toBe(200);
  return r.body.data.metrics;
};

const fx = withServer({ accounts: { a: {} } });
beforeAll(async () => {
  // O1 first in March, resent in April; O2 only in April. Old enough that stopping compacts them to Parquet.
  expect((await importLines(fx.srv.url, fx.a, [
    purchase('2026-03-10T10:00:00Z', 'p1', 'O1', 10),
    purchase('2026-04-02T10:00:00Z', 'p1', 'O1', 10),
    purchase('2026-04-03T10:00:00Z', 'p2', 'O2', 20),
    pageview('2026-04-03T09:59:00Z', 'p2'), pageview('2026-04-03T10:14:59Z', 'p2'), pageview('2026-04-03T10:15:00Z', 'p2'),
  ])).body.data.imported).toBe(6);
});

const PURCHASES = [
  { order_id: 'O1', ts: '2026-03-10T10:00:00.000Z', revenue: 10 },
  { order_id: 'O1', ts: '2026-04-02T10:00:00.000Z', revenue: 10 },
  { order_id: 'O2', ts: '2026-04-03T10:00:00.000Z', revenue: 20 },
];
const storedPurchases = () => queryStored(fx.srv.dataDir, 'SELECT order_id, ts, revenue::DOUBLE AS revenue FROM purchases WHERE site_id = ? ORDER BY ts', [fx.a.site.id]);

test('the loader records every paid event; an order resent later counts once', async () => {
  expect(await aprilRevenue()).toMatchObject({ revenue: 20, orders: 1 });
  // A filter reads the events themselves, and must agree.
  const filtered = await april('revenue', `&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'hostname', operator: 'is', value: 'example.com' }]))}`);
  expect(filtered.body.data.metrics).toMatchObject({ revenue: 20, orders: 1 });
  await fx.srv.stop();
  expect(await storedPurchases()).toEqual(PURCHASES);
  expect((await queryStored<any>(fx.srv.dataDir, `SELECT count(*)::INTEGER AS n FROM events WHERE site_id = ?`, [fx.a.site.id]))[0].n).toBe(0);
});

const SLOTS = [
  { slot: '2026-03-10T10:00:00.000Z', pageviews: 0, events: 1 },
  { slot: '2026-04-02T10:00:00.000Z', pageviews: 0, events: 1 },
  { slot: '2026-04-03T09:45:00.000Z', pageviews: 1, events: 1 },
  { slot: '2026-04-03T10:00:00.000Z', pageviews: 1, events: 2 },
  { slot: '2026-04-03T10:15:00.000Z', pageviews: 1, events: 1 },
];

test('the loader counts pageviews and events per 15-minute slot; unfiltered totals and charts read them', async () => {
  expect(await storedSlots()).toEqual(SLOTS);
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  const stats = await april('stats');
  expect(stats.body.data.metrics).toMatchObject({ pageviews: 3, events: 5 });
  // A filter needs the events themselves; it must agree where it selects everything.
  const filtered = await april('stats', `&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'hostname', operator: 'is', value: 'example.com' }]))}`);
  expect(filtered.body.data.metrics).toMatchObject({ pageviews: 3, events: 5 });
  const chart = await april('charts');
  expect(chart.body.data.points.find((p: any) => p.date === '2026-04-03')).toMatchObject({ pageviews: 3 });
  await fx.srv.stop();
});

test('a data directory from before the registry gets it backfilled from its Parquet files at start', async () => {
  await execStored(fx.srv.dataDir, [
    'DROP TABLE purchases',
    'DROP TABLE event_counts',
    `DELETE FROM schema_migrations WHERE name IN ('0004-purchases.sql', '0005-event-counts.sql')`,
  ]);

  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  // Without the backfill, O1's April resend would count as a new order (30 USD, 2 orders).
  expect(await aprilRevenue()).toMatchObject({ revenue: 20, orders: 1 });
  expect((await april('stats')).body.data.metrics).toMatchObject({ pageviews: 3, events: 5 });
  await fx.srv.stop();
  expect(await storedSlots()).toEqual(SLOTS);
  expect(await storedPurchases()).toEqual(PURCHASES);
});
