// Export over real HTTP: each format is downloaded and read back (DuckDB for Parquet, csv-parse for CSV,
// JSON.parse for NDJSON); every row and column agrees across formats, with the imported fixture, and with
// what the analytics and visitors endpoints report.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';
import { client } from '../helpers/api.ts';
import { fixtureLines, importFixture } from '../helpers/site-data.ts';
import { sendEvent } from '../helpers/inspect-db.ts';
import { csvCell } from '../../src/http/csv.ts';

const fx = withServer({ accounts: { acct: { scopes: ['analytics:read', 'visitors:read'] } } });

let base: string;
const tmp = mkdtempSync(join(tmpdir(), 'tern-export-'));
const lines = fixtureLines({ visitors: 12, months: 3, eventsPerVisit: 4 });

beforeAll(async () => {
  base = `/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}`;
  await importFixture(fx.acct.api, fx.acct.token, fx.acct.orgId, fx.acct.site.id, lines);
  // One live event: its visit is still open (the hot visits table) when exported.
  expect(await sendEvent(fx.srv.url, { site_id: fx.acct.site.public_id, url: 'https://example.com/live?x=1', visitor_uid: 'live-1', title: '@live' })).toBe(202);
  for (let i = 0; i < 100; i++) {
    const s = await fx.acct.api.get(`${base}/analytics/stats?period=day`, fx.acct.key);
    if (s.body.data?.metrics.events === 1) break;
    await Bun.sleep(100);
  }
});
afterAll(() => { rmSync(tmp, { recursive: true, force: true }); });

const download = async (q: string, token = fx.acct.key) => {
  const r = await fetch(`${fx.srv.url}${base}/export?${q}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, headers: r.headers, bytes: new Uint8Array(await r.arrayBuffer()) };
};

async function readParquet(bytes: Uint8Array) {
  const file = join(tmp, `${crypto.randomUUID()}.parquet`);
  writeFileSync(file, bytes);
  const inst = await DuckDBInstance.create(':memory:');
  try {
    const c = await inst.connect();
    await c.run("SET TimeZone = 'UTC'");
    const types = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRowObjectsJS().map((r) => [r.column_name, r.column_type]);
    const rows = (await c.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJS();
    return { types: Object.fromEntries(types) as Record<string, string>, rows };
  } finally { inst.closeSync(); }
}

/** A row in one canonical shape: times ISO, revenue a number, properties an object or null. */
function canon(r: Record<string, any>) {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(r)) {
    if (v instanceof Date) out[k] = v.toISOString();
    else if (typeof v === 'bigint') out[k] = Number(v);
    else if (k === 'revenue') out[k] = v === null || v === '' ? null : Number(String(v));
    else if (k === 'properties') out[k] = v === null || v === '' ? null : typeof v === 'string' ? JSON.parse(v) : Array.isArray(v) ? Object.fromEntries(v.map((e: any) => [e.key, e.value])) : v;
    else out[k] = v;
  }
  return out;
}
const byKey = (rows: Record<string, any>[], key: (r: any) => string) => new Map(rows.map((r) => [key(r), r]));

test('events: Parquet, CSV and NDJSON hold the same rows, matching the fixture and the API', async () => {
  const [pq, csv, nd] = await Promise.all(['parquet', 'csv', 'ndjson'].map((f) => download(`table=events&format=${f}`)));
  for (const d of [pq, csv, nd]) expect(d.status).toBe(200);
  expect(pq.headers.get('content-type')).toBe('application/vnd.apache.parquet');
  expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="example.com-events.csv"$/);

  const parquet = await readParquet(pq.bytes);
  // Parquet keeps types.
  expect(parquet.types).toMatchObject({ timestamp: 'TIMESTAMP WITH TIME ZONE', visit_id: 'BIGINT', revenue: 'DECIMAL(18,4)', properties: 'MAP(VARCHAR, VARCHAR)', time_on_page: 'DOUBLE', visitor_id: 'VARCHAR' });
  const text = new TextDecoder().decode(csv.bytes);
  expect(text.split('\r\n').length).toBeGreaterThan(lines.length); // CRLF records
  const csvRows: Record<string, string>[] = parse(text, { columns: true, relax_quotes: false });
  const ndRows = new TextDecoder().decode(nd.bytes).trim().split('\n').map((l) => JSON.parse(l));

  const stats = (await fx.acct.api.get(`${base}/analytics/stats?period=12mo`, fx.acct.key)).body.data.metrics;
  expect(parquet.rows.length).toBe(stats.events);
  expect(csvRows.length).toBe(stats.events);
  expect(ndRows.length).toBe(stats.events);
  expect(stats.events).toBe(lines.length + 1);

  // Same columns in the same order everywhere.
  const cols = Object.keys(ndRows[0]);
  expect(Object.keys(parquet.rows[0]!)).toEqual(cols);
  expect(Object.keys(csvRows[0]!)).toEqual(cols);

  const key = (r: any) => `${r.visitor_id}|${r.timestamp}|${r.url}`;
  const pqBy = byKey(parquet.rows.map(canon), key);
  const csvBy = byKey(csvRows, key);
  for (const n of ndRows) {
    const want = canon(n);
    expect(pqBy.get(key(n))).toEqual(want);
    // CSV: every cell is the NDJSON value as the CSV writer prints it (text neutralised, nulls empty).
    const c = csvBy.get(key(n))!;
    for (const col of cols) {
      const v = col === 'properties' ? (n[col] && Object.keys(n[col]).length ? JSON.stringify(n[col]) : null) : n[col];
      const printed = csvCell(v);
      expect(c[col]).toBe(printed.startsWith('"') ? printed.slice(1, -1).replaceAll('""', '"') : printed);
    }
  }

  // The visitors API's ids; the fixture's every event, title and properties.
  const visitors = (await fx.acct.api.get(`${base}/visitors?limit=100`, fx.acct.key)).body.data.visitors as any[];
  const idOf = new Map(visitors.map((v) => [v.uid, v.id]));
  const ndBy = byKey(ndRows, (r) => `${r.visitor_id}|${r.timestamp}`);
  for (const l of lines) {
    const row = ndBy.get(`${idOf.get(l.visitor_uid)}|${l.timestamp}`)!;
    expect(row).toBeDefined();
    expect(row).toMatchObject({ event_type: l.event_type, title: l.title ?? null, event_name: l.event_name ?? null, order_id: l.order_id ?? null });
    expect(row.revenue).toBe((l.revenue as number | undefined) ?? null);
    expect(row.properties ?? null).toEqual(l.properties ?? null);
  }
  // Formula neutralisation, spot-checked on the raw text.
  expect(text).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
  expect(text).toContain(',\'+1+1,');
  expect(text).toContain(',\'@live,');
  expect(text).toContain('"two\nlines"');
});

test('visits: every format agrees with the stats endpoint, open visits included', async () => {
  const stats = (await fx.acct.api.get(`${base}/analytics/stats?period=12mo`, fx.acct.key)).body.data.metrics;
  const pq = await readParquet((await download('table=visits&format=parquet')).bytes);
  const nd = new TextDecoder().decode((await download('table=visits&format=ndjson')).bytes).trim().split('\n').map((l) => JSON.parse(l));
  const csv: any[] = parse(new TextDecoder().decode((await download('table=visits&format=csv')).bytes), { columns: true });
  for (const rows of [pq.rows, nd, csv]) {
    expect(rows.length).toBe(stats.visits);
    expect(rows.reduce((n: number, r: any) => n + Number(r.pageviews), 0)).toBe(stats.pageviews);
  }
  expect(pq.types).toMatchObject({ started_at: 'TIMESTAMP WITH TIME ZONE', is_bounce: 'BOOLEAN', pageviews: 'INTEGER' });
  const ndBy = byKey(nd, (r) => String(r.visit_id));
  for (const r of pq.rows.map(canon)) expect(r).toEqual(canon(ndBy.get(String(r.visit_id))!));
  expect(nd.some((v) => v.entry_page === '/live')).toBe(true);
});

test('a custom range holds exactly the rows the API counts for it', async () => {
  const to = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.now() - 50 * 86_400_000).toISOString().slice(0, 10);
  const stats = (await fx.acct.api.get(`${base}/analytics/stats?period=custom&from=${from}&to=${to}`, fx.acct.key)).body.data.metrics;
  const r = await download(`table=events&format=ndjson&from=${from}&to=${to}`);
  const rows = new TextDecoder().decode(r.bytes).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  expect(rows.length).toBe(stats.events);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row.timestamp >= `${from}T00:00:00.000Z` && row.timestamp < `${to}T24`).toBe(true);
  expect(r.headers.get('content-disposition')).toContain(`-events-${from}-${to}.ndjson`);
});

test('a range without rows answers the header (CSV) or nothing (NDJSON); CSV has one header across months', async () => {
  const csv = new TextDecoder().decode((await download('table=events&format=csv&from=2001-01-01&to=2001-12-31')).bytes);
  expect(csv).toBe('timestamp,visitor_id,visit_id,event_type,event_name,url,hostname,path,title,referrer,source,channel,utm_source,utm_medium,utm_campaign,utm_term,utm_content,country,region,city,browser,browser_version,os,os_version,device,screen,session_id,time_on_page,scroll_depth,revenue,currency,order_id,properties\r\n');
  expect((await download('table=events&format=ndjson&from=2001-01-01&to=2001-12-31')).bytes.length).toBe(0);
  const all = new TextDecoder().decode((await download('table=visits&format=csv')).bytes);
  expect(all.match(/^visit_id,/gm)).toHaveLength(1);
});

test('access and bad input', async () => {
  const analyticsOnly = (await client(fx.srv.url).post(`/api/v1/organizations/${fx.acct.orgId}/api-keys`, { name: 'a', scopes: ['analytics:read'] }, fx.acct.token)).body.data.key;
  const denied = await fx.acct.api.get(`${base}/export?table=events`, analyticsOnly);
  expect(denied.status).toBe(403);
  expect(denied.body.error).toContain('visitors:read');
  expect((await download('table=events&format=csv', fx.acct.token)).status).toBe(200); // a member's session
  expect((await fx.acct.api.get(`${base}/export?table=events`)).status).toBe(401);
  for (const q of ['table=people', 'table=events&format=xlsx', 'table=events&from=2024-13-01', 'table=events&from=2024-02-01&to=2024-01-01', '']) {
    const r = await fx.acct.api.get(`${base}/export?${q}`, fx.acct.key);
    expect(r.status).toBe(400);
    expect(typeof r.body.error).toBe('string');
  }
});
