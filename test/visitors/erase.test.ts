// Visitor erasure over real HTTP: by profile id, by external_id and by uid; every endpoint, the Parquet files
// on disk and the ingest log forget the visitor, every other visitor's numbers stay, and an audit row is kept.
import { beforeAll, expect, test } from 'bun:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { client } from '../helpers/api.ts';
import { fixtureLines, importFixture } from '../helpers/site-data.ts';
import { queryStored, sendEvent } from '../helpers/inspect-db.ts';
import { uidVisitorId } from '../../src/ingest/hash.ts';

// Loads wait a minute: live events sent below are still in the log when the erasure runs.
const fx = withServer({ server: { env: { INGEST_LOAD_INTERVAL_MS: '60000' } }, accounts: { acct: { scopes: ['visitors:read', 'analytics:read'] } } });

let base: string;
// Some pageviews report engagement, so the rewritten files' engagement sums are checked too.
const lines = fixtureLines({ visitors: 40, months: 4, eventsPerVisit: 4 })
  .map((l, i) => (l.event_type === 'pageview' && i % 3 ? { ...l, time_on_page: 5 + (i % 50) / 3, scroll_depth: i % 101 } : l));
const TARGET = 'u7';

/** Every row of every Parquet file on disk (registered or not), read directly. */
async function onDisk(dataDir: string, sql: (rel: string) => string) {
  const inst = await DuckDBInstance.create(':memory:');
  try {
    const c = await inst.connect();
    const rel = `read_parquet('${join(dataDir, 'parquet')}/**/*.parquet', union_by_name = true)`;
    return (await c.runAndReadAll(sql(rel))).getRowObjectsJS().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
  } finally { inst.closeSync(); }
}

const get = async (path: string) => {
  const r = await fx.acct.api.get(`${base}${path}`, fx.acct.key);
  if (r.status !== 200) console.log(path, r.text, fx.srv.logs().split('\n').filter((l) => l.includes('error')).slice(-3).join('\n'));
  expect(r.status).toBe(200);
  return r.body.data;
};
const allVisitors = async () => (await get('/visitors?limit=100')).visitors as any[];
const stats = async () => (await get('/analytics/stats?period=12mo')).metrics;

let before: { visitors: any[]; stats: any; sources: any };
const sources = async () => (await get('/analytics/sources?period=12mo&limit=100')).results;

beforeAll(async () => {
  base = `/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}`;
  await importFixture(fx.acct.api, fx.acct.token, fx.acct.orgId, fx.acct.site.id, lines);
  const identify = (b: object) => fetch(`${fx.srv.url}/api/v1/identify`, { method: 'POST', body: JSON.stringify({ site_id: fx.acct.site.public_id, ...b }) });
  expect((await identify({ visitor_uid: TARGET, user_id: 'acct-7', email: 'seven@example.com', name: 'Seven' })).status).toBe(202);
  expect((await identify({ visitor_uid: 'u8', user_id: 'acct-8', email: 'eight@example.com' })).status).toBe(202);
  before = { visitors: await allVisitors(), stats: await stats(), sources: await sources() };
});

test('only an owner or admin session may erase; unknown visitors are 404', async () => {
  const v = before.visitors.find((x) => x.uid === TARGET)!;
  expect((await fx.acct.api.del(`${base}/visitors/${v.id}`, fx.acct.key)).status).toBe(403);
  expect((await fx.acct.api.del(`${base}/visitors/00000000-0000-0000-0000-000000000000`, fx.acct.token)).status).toBe(404);
  expect((await fx.acct.api.del(`${base}/visitors/not-a-uuid`, fx.acct.token)).status).toBe(404);
  expect((await fx.acct.api.del(`${base}/visitors?external_id=nobody`, fx.acct.token)).status).toBe(404);
  const both = await fx.acct.api.del(`${base}/visitors?external_id=a&uid=b`, fx.acct.token);
  expect(both.status).toBe(400);
  expect(both.body.error).toContain('exactly one');
  expect((await fx.acct.api.del(`${base}/visitors`, fx.acct.token)).status).toBe(400);
});

test('erasing by profile id: counts, endpoints, other visitors unchanged, files on disk, log, audit', async () => {
  const target = before.visitors.find((x) => x.uid === TARGET)!;
  const mine = lines.filter((l) => l.visitor_uid === TARGET);
  // Two more events of the visitor reach the log (accepted, not yet loaded) before the erasure.
  for (const p of ['/late-1', '/late-2']) expect(await sendEvent(fx.srv.url, { site_id: fx.acct.site.public_id, url: `https://example.com${p}`, visitor_uid: TARGET })).toBe(202);
  await Bun.sleep(1500); // the segment seals (rotation is 1 s) and waits in the loader's queue

  const res = await fx.acct.api.del(`${base}/visitors/${target.id}`, fx.acct.token);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ id: target.id, events_deleted: mine.length, visits_deleted: 4 });

  // Every endpoint: the visitor is gone, the site's totals lost exactly their share.
  expect((await fx.acct.api.get(`${base}/visitors/${target.id}/timeline`, fx.acct.key)).status).toBe(404);
  const after = await allVisitors();
  expect(after.map((v) => v.id).sort()).toEqual(before.visitors.filter((v) => v.id !== target.id).map((v) => v.id).sort());
  expect((await get(`/visitors?search=seven`)).visitors).toEqual([]);
  const s = await stats();
  const pv = mine.filter((l) => l.event_type === 'pageview').length;
  expect(s.visitors).toBe(before.stats.visitors - 1);
  expect(s.visits).toBe(before.stats.visits - 4);
  expect(s.pageviews).toBe(before.stats.pageviews - pv);
  expect(s.events).toBe(before.stats.events - mine.length);
  // Every other visitor: the same profile and lifetime totals. (Timelines are left out: their query trips
  // a DuckDB internal error intermittently, erasure or not; see the report.)
  for (const v of after) expect(v).toEqual(before.visitors.find((x) => x.id === v.id));
  // The sources breakdown: u7's one source lost a visitor and its visits; every other row is unchanged.
  const src = await sources();
  const counts = ({ percentage: _share, ...row }: any) => JSON.stringify(row);
  const changed = before.sources.filter((row: any) => counts(src.find((r: any) => r.name === row.name)) !== counts(row));
  expect(changed).toHaveLength(1);
  expect(src.find((r: any) => r.name === changed[0].name).visitors).toBe(changed[0].visitors - 1);

  // A restart loads the log (the two late events must not come back) and sweeps the replaced files.
  await fx.srv.stop();
  fx.srv = await startServer({ dataDir: fx.srv.dataDir, env: { INGEST_LOAD_INTERVAL_MS: '60000' } });
  await fx.srv.stop();
  const vid = uidVisitorId(fx.acct.site.id, TARGET);
  expect(await onDisk(fx.srv.dataDir, (rel) => `SELECT count(*) AS n FROM ${rel} WHERE visitor_id = ${vid}`)).toEqual([{ n: 0 }]);
  const [onDiskEvents] = await onDisk(fx.srv.dataDir, (rel) => `SELECT count(*) AS n FROM ${rel} WHERE visit_id IS NOT NULL AND ts IS NOT NULL`);
  expect(onDiskEvents!.n).toBe(lines.length - mine.length);
  for (const t of ['visitors', 'visits', 'visitor_history', 'purchases']) {
    expect(await queryStored(fx.srv.dataDir, `SELECT count(*) AS n FROM ${t} WHERE visitor_id = ?`, [vid])).toEqual([{ n: 0 }]);
  }
  const [slots] = await queryStored(fx.srv.dataDir, 'SELECT sum(pageviews) AS pv, sum(events) AS ev FROM event_counts WHERE site_id = ?', [fx.acct.site.id]);
  expect(slots).toEqual({ pv: before.stats.pageviews - pv, ev: before.stats.events - mine.length });
  // Each rewritten file's engagement sums (renamed and less the visitor's, not summed again) equal what
  // summing every registered events file again gives.
  const list = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(', ')}]`;
  const files = (await queryStored<{ path: string }>(fx.srv.dataDir, `SELECT path FROM parquet_files WHERE tbl = 'events' AND site_id = ?`, [fx.acct.site.id])).map((f) => f.path);
  const engagement = (sql: string, params: any[] = []) => queryStored(fx.srv.dataDir, `SELECT file, day::VARCHAR AS day, engaged_path, engaged_hostname, top_n, round(top_sum, 6) AS top_sum, sd_n, round(sd_sum, 6) AS sd_sum FROM (${sql}) ORDER BY ALL`, params);
  const kept = await engagement(`SELECT * FROM file_engagement WHERE site_id = ?`, [fx.acct.site.id]);
  const summed = await engagement(`SELECT m.rel AS file, ts::DATE AS day, engaged_path, engaged_hostname, coalesce(sum(time_on_page), 0) AS top_sum, count(time_on_page) AS top_n, coalesce(sum(scroll_depth), 0) AS sd_sum, count(scroll_depth) AS sd_n
    FROM read_parquet(${list(files.map((f) => join(fx.srv.dataDir, f)))}, filename = true) r
    JOIN (SELECT unnest(${list(files.map((f) => join(fx.srv.dataDir, f)))}) AS abs, unnest(${list(files)}) AS rel) m ON m.abs = r.filename
    WHERE time_on_page IS NOT NULL OR scroll_depth IS NOT NULL GROUP BY ALL`);
  expect(summed.length).toBeGreaterThan(0);
  expect(kept).toEqual(summed);
  const audit = await queryStored(fx.srv.dataDir, 'SELECT visitor::VARCHAR AS visitor, erased_by::VARCHAR AS erased_by, events_deleted, visits_deleted, erased_at FROM visitor_erasures');
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({ visitor: target.id, events_deleted: mine.length, visits_deleted: 4 });
  expect(JSON.stringify(audit)).not.toContain('seven');
  fx.srv = await startServer({ dataDir: fx.srv.dataDir, env: { INGEST_LOAD_INTERVAL_MS: '60000' } });
  fx.acct.api = client(fx.srv.url);
  // Events accepted after the erasure are new data: the visitor comes back with just those.
  expect(await sendEvent(fx.srv.url, { site_id: fx.acct.site.public_id, url: 'https://example.com/again', visitor_uid: TARGET })).toBe(202);
  await fx.srv.stop();
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  fx.acct.api = client(fx.srv.url);
  const back = (await allVisitors()).find((v) => v.uid === TARGET);
  expect(back).toMatchObject({ total_pageviews: 1, total_sessions: 1 });
  expect(back.email).toBeUndefined();
}, 60_000);

test('erasing by external_id and by uid', async () => {
  const u8 = before.visitors.find((x) => x.uid === 'u8')!;
  const n8 = lines.filter((l) => l.visitor_uid === 'u8').length;
  const byExt = await fx.acct.api.del(`${base}/visitors?external_id=acct-8`, fx.acct.token);
  expect(byExt.status).toBe(200);
  expect(byExt.body.data).toEqual({ id: u8.id, events_deleted: n8, visits_deleted: 4, visitors: [{ id: u8.id, events_deleted: n8, visits_deleted: 4 }] });
  const n9 = lines.filter((l) => l.visitor_uid === 'u9').length;
  const byUid = await fx.acct.api.del(`${base}/visitors?uid=u9`, fx.acct.token);
  expect(byUid.status).toBe(200);
  expect(byUid.body.data).toMatchObject({ events_deleted: n9, visits_deleted: 4 });
  expect((await allVisitors()).map((v) => v.uid)).not.toContain('u9');
  // A uid never seen erases nothing, and says so.
  expect((await fx.acct.api.del(`${base}/visitors?uid=never-seen`, fx.acct.token)).body.data).toMatchObject({ events_deleted: 0, visits_deleted: 0 });
});
