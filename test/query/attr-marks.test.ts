// Attribute-change marks: visitors per device, browser, OS, country… (breakdowns) and per page × device or
// country (/query) counted from the marks equal the exact distinct counts (the same query with a filter every
// event passes) — with visitors changing device, country and source between visits and within one, ranges
// starting mid-history, live events marked against the stored history, past data imported (stale marks, then
// recomputed) and a data directory from before the marks (migration 0013).
import { beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { execStored, queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';
import { Database } from '../../src/storage/database.ts';
import { ParquetManifest } from '../../src/storage/parquet-layout.ts';
import { planFor, type Scope } from '../../src/query/plan/planner.ts';
import { bitOf } from '../../src/storage/attr-marks.ts';
import { rows } from '../../src/query/run.ts';
import { sql } from '../../src/storage/sql.ts';

const UA = {
  desktop: 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/125.0',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  phone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
};
const IP = { gb: '81.2.69.142', us: '8.8.8.8' };
const line = (ts: string, uid: string, path: string, ua: keyof typeof UA, ip: keyof typeof IP, referrer?: string) => ({
  url: `https://example.com${path}`, timestamp: ts, visitor_uid: uid, user_agent: UA[ua], ip: IP[ip], referrer,
});

/** Filters every event passes: they send a query down the exact count(DISTINCT) path. */
const NO_OP = encodeURIComponent(JSON.stringify([{ dimension: 'hostname', operator: 'is', value: 'example.com' }]));
const NO_OP_QUERY = [['is', 'event:hostname', ['example.com']]];

const fx = withServer({ accounts: { a: {} }, timeout: 60_000 });
const site = () => `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}`;

beforeAll(async () => {
  const r = await importLines(fx.srv.url, fx.a, [
    // u1: a desktop visit from GB via Google, then a phone visit from the US, direct.
    line('2026-04-02T10:00:00Z', 'u1', '/a', 'desktop', 'gb', 'https://www.google.com/'), line('2026-04-02T10:01:00Z', 'u1', '/b', 'desktop', 'gb'),
    line('2026-04-03T09:00:00Z', 'u1', '/a', 'phone', 'us'),
    // u2: one visit that starts on a desktop and goes on on a phone (the visit's device is its first event's).
    line('2026-04-02T10:10:00Z', 'u2', '/a', 'desktop', 'us'), line('2026-04-02T10:12:00Z', 'u2', '/b', 'phone', 'us'), line('2026-04-02T10:14:00Z', 'u2', '/a', 'phone', 'us'),
    // u3: the same device in two countries, on two days.
    line('2026-04-02T23:50:00Z', 'u3', '/b', 'windows', 'gb'), line('2026-04-04T08:00:00Z', 'u3', '/b', 'windows', 'us', 'https://twitter.com/'),
    // u4: one visit, nothing changes.
    line('2026-04-04T12:00:00Z', 'u4', '/c', 'windows', 'us'),
    // u5: desktop, phone, desktop again (A → B → A), one visit a day.
    line('2026-04-02T15:00:00Z', 'u5', '/a', 'desktop', 'gb'), line('2026-04-03T15:00:00Z', 'u5', '/a', 'phone', 'gb'), line('2026-04-04T15:00:00Z', 'u5', '/c', 'desktop', 'gb'),
  ]);
  expect(r.body.data.imported).toBe(12);
}, 60_000);

const RANGES = [['2026-04-01', '2026-04-05'], ['2026-04-02', '2026-04-02'], ['2026-04-03', '2026-04-05'], ['2026-04-04', '2026-04-04'], ['2026-04-03', '2026-04-03']];
const BREAKDOWNS = [['devices', 'device'], ['devices', 'browser'], ['devices', 'os'], ['devices', 'os_version'], ['devices', 'screen'], ['locations', 'country'],
  ['locations', 'city'], ['sources', 'source'], ['channels', 'channel']];

/** name → [visitors, visits, pageviews, percentage] of a breakdown, from the marks and exactly; both must agree. */
async function breakdown(endpoint: string, property: string, from: string, to: string) {
  const api = client(fx.srv.url);
  const base = `${site()}/analytics/${endpoint}?period=custom&from=${from}&to=${to}&property=${property}`;
  const [marked, exact] = await Promise.all([api.get(base, fx.a.token), api.get(`${base}&filters=${NO_OP}`, fx.a.token)]);
  expect(marked.status).toBe(200);
  const rows = (r: any) => Object.fromEntries(r.body.data.results.map((x: any) => [x.name, [x.visitors, x.visits, x.pageviews, x.percentage]]));
  expect({ property, from, to, rows: rows(marked) }).toEqual({ property, from, to, rows: rows(exact) });
  return rows(marked);
}

/** /query rows [dims…, visitors, visits, pageviews, events], from the marks and exactly; both must agree. */
async function query(dimensions: string[], from: string, to: string, metrics = ['visitors', 'visits', 'pageviews', 'events']) {
  const api = client(fx.srv.url);
  const body = { date_range: [from, to], metrics, dimensions, pagination: { limit: 100 } };
  const [marked, exact] = await Promise.all([api.post(`${site()}/query`, body, fx.a.token), api.post(`${site()}/query`, { ...body, filters: NO_OP_QUERY }, fx.a.token)]);
  expect(marked.status).toBe(200);
  const rows = (r: any) => r.body.data.results.map((x: any) => [...x.dimensions, ...x.metrics]);
  expect({ dimensions, from, to, rows: rows(marked) }).toEqual({ dimensions, from, to, rows: rows(exact) });
  return rows(marked);
}

async function everyAnswerExact() {
  for (const [from, to] of RANGES) {
    for (const [endpoint, property] of BREAKDOWNS) await breakdown(endpoint!, property!, from!, to!);
    for (const dims of [['event:page', 'visit:device'], ['event:page', 'visit:country'], ['event:page', 'visit:device', 'visit:browser'], ['event:page', 'visit:os']]) {
      await query(dims, from!, to!);
    }
    // Visit attributes alone, counted on the visits (percentage: the scope's visitors from the same pass).
    for (const dims of [['visit:device', 'visit:country'], ['visit:browser', 'visit:os'], ['visit:city', 'visit:screen']]) {
      await query(dims, from!, to!, ['visitors', 'visits', 'pageviews', 'events', 'bounce_rate', 'percentage']);
    }
  }
}

test('breakdowns by visit attribute and /query page × attribute from the marks equal the exact counts over any range', async () => {
  // The fixture is not trivial: a visitor in two devices' rows, and a visit whose events show two devices.
  expect(await breakdown('devices', 'device', '2026-04-01', '2026-04-05')).toEqual({ desktop: [5, 7, 10, 100], mobile: [2, 2, 2, 40] });
  expect(await breakdown('locations', 'country', '2026-04-03', '2026-04-05')).toEqual({ US: [3, 3, 3, 75], GB: [1, 2, 2, 25] });
  expect(await query(['event:page', 'visit:device'], '2026-04-01', '2026-04-05')).toEqual([
    ['/a', 'desktop', 3, 3, 3, 3], ['/a', 'mobile', 3, 3, 3, 3], ['/b', 'desktop', 2, 3, 3, 3], ['/c', 'desktop', 2, 2, 2, 2], ['/b', 'mobile', 1, 1, 1, 1],
  ]);
  await everyAnswerExact();
}, 180_000);

test('the stored bits: set where the visitor\'s previous visit or event had another value, and the plan uses them', async () => {
  await fx.srv.stop();
  try {
    const bits = async (tbl: 'visits' | 'events', time: string) => Object.fromEntries((await queryStored<{ k: string; b: number }>(fx.srv.dataDir,
      `SELECT ${time}::VARCHAR AS k, attrs_changed AS b FROM ${await storedRelation(fx.srv.dataDir, tbl)} WHERE site_id = ? AND visitor_id IN
        (SELECT visitor_id FROM ${await storedRelation(fx.srv.dataDir, 'visits')} WHERE start_ts = '2026-04-02 10:00:00')`, [fx.a.site.id])).map((r) => [r.k, r.b]));
    const phone = bitOf('device') | bitOf('browser') | bitOf('browser_version') | bitOf('os') | bitOf('os_version');
    // u1's second visit: another device, country and city, direct instead of Google.
    const acquisition = bitOf('referrer') | bitOf('source') | bitOf('channel');
    expect(await bits('visits', 'start_ts')).toEqual({ '2026-04-02 10:00:00': 0, '2026-04-03 09:00:00': phone | acquisition | bitOf('country') | bitOf('region') | bitOf('city') });
    // Events carry the bits of what every event of a visit shares (no referrer: each pageview has its own).
    expect(await bits('events', 'ts')).toEqual({ '2026-04-02 10:00:00': 0, '2026-04-02 10:01:00': 0, '2026-04-03 09:00:00': phone | bitOf('country') | bitOf('region') | bitOf('city') });
    const db = await Database.open(fx.srv.dataDir, 1, '256MB');
    const files = new ParquetManifest(fx.srv.dataDir);
    try {
      await files.load(db);
      const scope = { site: { id: fx.a.site.id }, range: { fromUtc: '2026-04-01T00:00:00Z', toUtc: '2026-04-06T00:00:00Z' }, filters: [], files } as unknown as Scope;
      // A breakdown's pass over the marked visits counts the rows of visitors who changed (changed_rows); over 0, it
      // runs again over the visits with `changed` (ifChanged).
      const changedRows = async (column: string) => {
        const g = await planFor(db, scope).groups('visits', column);
        expect(g.table).toBe('first_visits');
        expect(g.ifChanged?.table).toBe('attr_visits');
        return Number((await rows(db, sql`SELECT ${g.scopeVisitors!} FROM ${g.from}`))[0]!.changed_rows);
      };
      expect(await changedRows('device')).toBeGreaterThan(0);
      expect((await planFor(db, scope).pageAttrEvents(['device', 'country']))?.table).toBe('attr_events');
      expect(await planFor(db, scope).pageAttrEvents(['source'])).toBeNull();
      expect((await planFor(db, scope).attrVisits(['device', 'country']))?.table).toBe('attr_visits');
      expect(await planFor(db, scope).attrVisits(['device', 'source'])).toBeNull();
      // No visitor showed two screens (none is sent): the plain sums answer, no distinct count beside.
      expect(await changedRows('screen')).toBe(0);
      expect((await planFor(db, scope).pageAttrEvents(['screen']))?.table).toBe('marked');
    } finally {
      await db.close();
    }
  } finally {
    fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  }
}, 180_000);

test('live events are marked against the stored history across load batches', async () => {
  const b = await setupAccount(fx.srv.url);
  const ev = (ua: string, path: string) => sendEvent(fx.srv.url, { site_id: b.site.public_id, url: `https://example.com${path}`, visitor_uid: 'live1' }, { 'user-agent': ua });
  expect(await ev(UA.desktop, '/x')).toBe(202);
  await Bun.sleep(1300); // the log segment rotates every second: the next event loads in a later batch
  expect(await ev(UA.phone, '/y')).toBe(202);
  const today = new Date().toISOString().slice(0, 10);
  const api = client(fx.srv.url);
  const url = `/api/v1/organizations/${b.orgId}/sites/${b.site.id}/analytics/devices?period=day&date=${today}&property=browser`;
  const views = async () => (await api.get(url, b.token)).body.data.results.reduce((n: number, x: any) => n + x.pageviews, 0);
  for (let i = 0; i < 50 && (await views()) !== 2; i++) await Bun.sleep(100);
  const body = { date_range: [today, today], metrics: ['visitors', 'events'], dimensions: ['event:page', 'visit:browser'] };
  const [marked, exact] = await Promise.all([api.post(`/api/v1/organizations/${b.orgId}/sites/${b.site.id}/query`, body, b.token),
    api.post(`/api/v1/organizations/${b.orgId}/sites/${b.site.id}/query`, { ...body, filters: NO_OP_QUERY }, b.token)]);
  const rows = (r: any) => r.body.data.results.map((x: any) => [...x.dimensions, ...x.metrics]);
  expect(rows(marked)).toEqual([['/x', 'Firefox', 1, 1], ['/y', 'Safari', 1, 1]]);
  expect(rows(marked)).toEqual(rows(exact));
  await fx.srv.stop();
  try {
    const stored = await queryStored<{ b: number }>(fx.srv.dataDir, `SELECT attrs_changed AS b FROM ${await storedRelation(fx.srv.dataDir, 'events')} WHERE site_id = ? ORDER BY ts`, [b.site.id]);
    expect(stored.map((r) => r.b & bitOf('browser'))).toEqual([0, bitOf('browser')]);
  } finally {
    fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  }
}, 180_000);

test('past data imported (stale marks, then recomputed) keeps every answer exact', async () => {
  // u3 and u5 seen earlier on other devices and in another country: every later mark of theirs changes.
  expect((await importLines(fx.srv.url, fx.a, [
    line('2026-04-01T08:00:00Z', 'u3', '/a', 'phone', 'us'), line('2026-04-01T09:00:00Z', 'u5', '/b', 'windows', 'us', 'https://www.google.com/'),
  ])).body.data.imported).toBe(2);
  expect(fx.srv.logs()).toContain('first-occurrence marks recomputed');
  await everyAnswerExact();
}, 180_000);

test('migration 0013 gives an older data directory its bits, and the answers stay exact', async () => {
  await fx.srv.stop();
  await execStored(fx.srv.dataDir, [
    'ALTER TABLE events DROP COLUMN attrs_changed', 'ALTER TABLE visits DROP COLUMN attrs_changed',
    'ALTER TABLE visitor_history DROP COLUMN last_event', 'ALTER TABLE visitor_history DROP COLUMN visit_attrs',
    `DELETE FROM schema_migrations WHERE name = '0013-attribute-change-marks.sql'`,
  ]);
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  await everyAnswerExact();
  await fx.srv.stop();
  try {
    const [{ set, unknown }] = await queryStored<{ set: number; unknown: number }>(fx.srv.dataDir,
      `SELECT count(*) FILTER (WHERE attrs_changed <> 0)::INTEGER AS set, count(*) FILTER (WHERE attrs_changed IS NULL)::INTEGER AS unknown
       FROM ${await storedRelation(fx.srv.dataDir, 'visits')} WHERE site_id = ?`, [fx.a.site.id]);
    expect({ set: set > 0, unknown }).toEqual({ set: true, unknown: 0 });
    const [{ missing }] = await queryStored<{ missing: number }>(fx.srv.dataDir,
      'SELECT count(*) FILTER (WHERE last_event IS NULL OR visit_attrs IS NULL)::INTEGER AS missing FROM visitor_history WHERE site_id = ?', [fx.a.site.id]);
    expect(missing).toBe(0);
  } finally {
    fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  }
}, 180_000);
