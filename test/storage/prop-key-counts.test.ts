// Events per property key and 15-minute slot (prop_key_counts): the /query key list reads them when unfiltered,
// and must give what counting the events themselves gives, after an erasure and after a backfill alike.
import { beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { client } from '../helpers/api.ts';
import { execStored, queryStored } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0';
const event = (ts: string, uid: string, props?: Record<string, string>) => ({
  url: 'https://example.com/pricing', timestamp: ts, visitor_uid: uid, user_agent: UA, event_type: 'custom', event_name: 'Signup', ...(props ? { properties: props } : {}),
});

const fx = withServer({ accounts: { a: {} } });
const api = () => client(fx.srv.url);
const base = () => `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}`;

/** The key list over April: from the registry, or (`scan`) with a filter every event passes, which reads the events. */
async function keys(scan = false) {
  const body = { date_range: ['2026-04-01', '2026-04-30'], metrics: ['events'], dimensions: ['event:props'],
    filters: scan ? [['is', 'event:hostname', ['example.com']]] : [] };
  const r = await api().post(`${base()}/query`, body, fx.a.token);
  expect(r.status).toBe(200);
  return r.body.data.results.map((x: { dimensions: string[]; metrics: number[] }) => [x.dimensions[0], x.metrics[0]]);
}

const stored = () => queryStored(fx.srv.dataDir, `SELECT slot, key, events FROM prop_key_counts WHERE site_id = ? AND events > 0 ORDER BY ALL`, [fx.a.site.id]);

beforeAll(async () => {
  expect((await importLines(fx.srv.url, fx.a, [
    event('2026-04-02T10:00:00Z', 'p1', { plan: 'pro', size: 'xl' }),
    event('2026-04-02T10:20:00Z', 'p1', { plan: 'pro' }),
    event('2026-04-03T09:00:00Z', 'p2', { plan: 'free', coupon: 'SPRING' }),
    event('2026-04-03T09:05:00Z', 'p3'),
    event('2026-05-01T12:00:00Z', 'p2', { plan: 'free', late: 'yes' }),
  ])).body.data.imported).toBe(5);
});

test('the key list is summed from the registry and equals counting the events', async () => {
  const expected = [['plan', 3], ['coupon', 1], ['size', 1]];
  expect(await keys(true)).toEqual(expected);
  expect(await keys()).toEqual(expected);
});

test('erasing a visitor takes its events out of the registry; a key only it carried disappears', async () => {
  const visitors = (await api().get(`${base()}/visitors?limit=100`, fx.a.token)).body.data.visitors as { id: string; uid?: string; visitor_uid?: string }[];
  const p1 = visitors.find((v) => (v.uid ?? v.visitor_uid) === 'p1');
  expect(p1).toBeDefined();
  expect((await api().del(`${base()}/visitors/${p1!.id}`, fx.a.token)).status).toBe(200);
  const expected = [['coupon', 1], ['plan', 1]];
  expect(await keys(true)).toEqual(expected);
  expect(await keys()).toEqual(expected);
});

test('a data directory from before the registry gets it backfilled at start', async () => {
  await fx.srv.stop();
  const before = await stored();
  expect(before.map((r) => r.key).sort()).toEqual(['coupon', 'late', 'plan', 'plan']);
  await execStored(fx.srv.dataDir, ['DROP TABLE prop_key_counts', `DELETE FROM schema_migrations WHERE name = '0014-prop-key-counts.sql'`]);
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  expect(await keys()).toEqual([['coupon', 1], ['plan', 1]]);
  await fx.srv.stop();
  expect(await stored()).toEqual(before);
});

test('the unfiltered key list reads the registry, not the events (a changed registry row shows)', async () => {
  await execStored(fx.srv.dataDir, [[`UPDATE prop_key_counts SET events = events + 40 WHERE site_id = ? AND key = 'coupon'`, [fx.a.site.id]]]);
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  expect(await keys()).toEqual([['coupon', 41], ['plan', 1]]);
  expect(await keys(true)).toEqual([['coupon', 1], ['plan', 1]]);
});
