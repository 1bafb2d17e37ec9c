// The property index (prop_values) over real HTTP: a key's values (the Properties panel's query) and the key list
// with visitors read it, and answer exactly what scanning the events' property maps answers — with the events hot
// and written to Parquet, after an erasure, after retention, after a backfill, and gone with the site.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { client } from '../helpers/api.ts';
import { execStored, queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';
import { retentionCutoff } from '../../src/storage/retention.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0';
const NOW = Date.now();
const MINUTE = 60_000;
const DAY = 86_400_000;
const CUTOFF = retentionCutoff(NOW, 12).getTime();

/** A small deterministic generator (the same lines every run). */
function rng(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const line = (ts: number, uid: string, props?: Record<string, string>) => ({
  url: `https://example.com/p${uid.length % 3}`, timestamp: new Date(ts).toISOString(), visitor_uid: uid, user_agent: UA,
  ...(props ? { event_type: 'custom', event_name: 'Click', properties: props } : {}),
});

/** 14 months of visits, two in five events carrying plan and/or button; one visit across the retention cutoff. */
function lines() {
  const r = rng(7);
  const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const out: ReturnType<typeof line>[] = [];
  for (let v = 0; v < 150; v++) {
    for (let visit = 0; visit < 2; visit++) {
      const start = NOW - DAY - Math.floor(r() * 420) * DAY - Math.floor(r() * 600) * MINUTE;
      for (let e = 0; e < 4; e++) {
        const x = r();
        const props: Record<string, string> | undefined = x < 0.15 ? { plan: pick(['free', 'pro', 'team']) } : x < 0.3 ? { button: pick(['a', 'b', 'c', 'd']) }
          : x < 0.4 ? { plan: pick(['free', 'pro']), button: pick(['a', 'b']) } : undefined;
        out.push(line(start + e * 2 * MINUTE, `u${v}`, props));
      }
    }
  }
  for (let e = 0; e < 10; e++) out.push(line(CUTOFF - 9 * MINUTE + e * 2 * MINUTE, 'edge', { plan: 'edge' }));
  return out;
}

const fx = withServer({ accounts: { a: {} } });
const base = () => `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}`;
/** A filter every event passes: the index cannot answer under it, so the query scans the events. */
const EVERY_EVENT = ['is_not', 'event:page', ['/no-such-page']];
const RANGES = [['2020-01-01', '2030-12-31'], '30d', '12mo'];

async function query(body: Record<string, unknown>) {
  const r = await client(fx.srv.url).post(`${base()}/query`, body, fx.a.token);
  expect(r.status).toBe(200);
  return { results: r.body.data.results, total: r.body.data.meta.total_rows };
}

/** The queries the index answers, each with its scan twin (the same question under a filter every event passes). */
const QUERIES = RANGES.flatMap((date_range) => [
  ...['plan', 'button'].map((key) => ({ date_range, metrics: ['visitors', 'events', 'percentage'], dimensions: [`event:props:${key}`],
    filters: [['is_not', `event:props:${key}`, ['(none)']]], pagination: { limit: 9 } })),
  { date_range, metrics: ['visitors', 'percentage'], dimensions: ['event:props:plan'], filters: [['is', 'event:props:plan', ['pro', 'team', 'edge']]] },
  { date_range, metrics: ['events', 'visitors'], dimensions: ['event:props:button'], filters: [['is_not', 'event:props:button', ['(none)']], ['contains', 'event:props:button', ['a', 'c']]] },
  { date_range, metrics: ['visitors', 'events', 'percentage'], dimensions: ['event:props'] },
]);

/** Every query answers the same on the index and on the scan, and finds rows. */
async function sameAsScan() {
  for (const q of QUERIES) {
    const indexed = await query(q);
    const scanned = await query({ ...q, filters: [...((q as { filters?: unknown[] }).filters ?? []), EVERY_EVENT] });
    expect({ q, answer: indexed }).toEqual({ q, answer: scanned });
  }
  const all = await query(QUERIES[0]!);
  expect(all.results.length).toBeGreaterThan(1);
}

/** The stored index holds exactly one row per stored event and property key (the server stopped). */
async function indexMatchesEvents() {
  const events = await storedRelation(fx.srv.dataDir, 'events');
  const cols = 'key, ts, visitor_id, value';
  const fromEvents = `SELECT ${cols} FROM (SELECT ts, visitor_id, unnest(map_keys(props)) AS key, unnest(map_values(props)) AS value FROM ${events} WHERE site_id = ?)`;
  const [diff] = await queryStored<{ missing: number; extra: number; rows: number }>(fx.srv.dataDir, `SELECT
      (SELECT count(*) FROM (${fromEvents} EXCEPT ALL SELECT ${cols} FROM prop_values WHERE site_id = ?))::INTEGER AS missing,
      (SELECT count(*) FROM (SELECT ${cols} FROM prop_values WHERE site_id = ? EXCEPT ALL ${fromEvents}))::INTEGER AS extra,
      (SELECT count(*) FROM prop_values WHERE site_id = ?)::INTEGER AS rows`, Array(5).fill(fx.a.site.id));
  expect({ missing: diff!.missing, extra: diff!.extra }).toEqual({ missing: 0, extra: 0 });
  return diff!.rows;
}

/** The site's index rows once the events are written to Parquet. */
let indexed = 0;
const hotRows = async () => (await queryStored<{ n: number }>(fx.srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM events WHERE site_id = ?', [fx.a.site.id]))[0]!.n;
const restart = async () => { fx.srv = await startServer({ dataDir: fx.srv.dataDir }); };
/** An import runs compaction when it is done (hot events written out, retention enforced): one event from an hour ago. */
const trigger = async () => expect((await importLines(fx.srv.url, fx.a, [line(NOW - 3_600_000, 'trigger')])).status).toBe(200);

test('hot events (a large import) and the same events written to Parquet: the index answers as the scan does', async () => {
  const all = lines();
  expect((await importLines(fx.srv.url, fx.a, all)).body.data).toMatchObject({ imported: all.length, rejected: 0 });
  await sameAsScan();
  await fx.srv.stop();
  expect(await hotRows()).toBe(all.length);
  expect(await indexMatchesEvents()).toBeGreaterThan(400);
  await restart();
  await trigger();
  await fx.srv.stop();
  expect(await hotRows()).toBe(0);
  indexed = await indexMatchesEvents();
  await restart();
  await sameAsScan();
}, 120_000);

test('live events: the loader writes their index rows in the batch that stores them', async () => {
  const live = { date_range: '30d', metrics: ['visitors', 'events'], dimensions: ['event:props:plan'], filters: [['is', 'event:props:plan', ['live']]] };
  for (const uid of ['live-1', 'live-1', 'live-2']) {
    expect(await sendEvent(fx.srv.url, { site_id: fx.a.site.public_id, url: 'https://example.com/live', event_type: 'custom', event_name: 'Click', visitor_uid: uid, properties: { plan: 'live', button: 'x' } })).toBe(202);
  }
  const scan = { ...live, filters: [...live.filters, EVERY_EVENT] };
  for (let i = 0; i < 100 && (await query(scan)).results.length === 0; i++) await Bun.sleep(100);
  expect((await query(scan)).results).toEqual([{ dimensions: ['live'], metrics: [2, 3] }]);
  expect((await query(live)).results).toEqual([{ dimensions: ['live'], metrics: [2, 3] }]);
  await sameAsScan();
  await fx.srv.stop();
  indexed = await indexMatchesEvents();
  await restart();
}, 60_000);

test('the index path is taken: a row only the index holds shows there, not in the scan', async () => {
  await fx.srv.stop();
  const stray = [`INSERT INTO prop_values VALUES (?, 'plan', ?::TIMESTAMP, 42, 'only-in-index')`, [fx.a.site.id, new Date(NOW - 2 * DAY).toISOString()]] as [string, unknown[]];
  await execStored(fx.srv.dataDir, [stray]);
  await restart();
  const q = { date_range: '30d', metrics: ['visitors', 'events'], dimensions: ['event:props:plan'], filters: [['is', 'event:props:plan', ['only-in-index']]] };
  expect((await query(q)).results).toEqual([{ dimensions: ['only-in-index'], metrics: [1, 1] }]);
  expect((await query({ ...q, filters: [...q.filters, EVERY_EVENT] })).results).toEqual([]);
  // The key list with visitors reads the index too (42 is no visitor of the events: one more visitor under plan).
  const keyList = { date_range: '30d', metrics: ['visitors'], dimensions: ['event:props'] };
  const visitorsOf = (a: Awaited<ReturnType<typeof query>>) => a.results.find((r: { dimensions: string[] }) => r.dimensions[0] === 'plan')?.metrics[0];
  expect(visitorsOf(await query(keyList))).toBe(visitorsOf(await query({ ...keyList, filters: [EVERY_EVENT] })) + 1);
  // Shapes the index cannot answer keep the scan: "(none)" in the answer, another key's filter, a metric it lacks.
  const scans = [
    { date_range: '30d', metrics: ['visitors'], dimensions: ['event:props:plan'], pagination: { limit: 100 } },
    { date_range: '30d', metrics: ['visitors'], dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:plan', ['pro']]], pagination: { limit: 100 } },
    { date_range: '30d', metrics: ['visitors'], dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:button', ['(none)']]], pagination: { limit: 100 } },
    { date_range: '30d', metrics: ['visitors', 'visits'], dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:plan', ['(none)']]], pagination: { limit: 100 } },
  ];
  for (const body of scans) expect({ body, stray: (await query(body)).results.some((r: { dimensions: string[] }) => r.dimensions[0] === 'only-in-index') }).toEqual({ body, stray: false });
  await fx.srv.stop();
  await execStored(fx.srv.dataDir, [[`DELETE FROM prop_values WHERE value = 'only-in-index'`, []]]);
  await restart();
}, 60_000);

test('erasing a visitor takes their rows out of the index', async () => {
  const r = await client(fx.srv.url).del(`${base()}/visitors?uid=u3`, fx.a.token);
  expect(r.status).toBe(200);
  expect(r.body.data.events_deleted).toBe(8);
  await sameAsScan();
  await fx.srv.stop();
  const theirs = lines().filter((l) => l.visitor_uid === 'u3').reduce((n, l) => n + Object.keys(l.properties ?? {}).length, 0);
  expect(theirs).toBeGreaterThan(0);
  expect(await indexMatchesEvents()).toBe(indexed - theirs);
  await restart();
}, 60_000);

test('retention takes the index rows before the cutoff, and those of a visit that began before it', async () => {
  const before = await query({ date_range: ['2020-01-01', '2030-12-31'], metrics: ['events'], dimensions: ['event:props:plan'], filters: [['is', 'event:props:plan', ['edge']]] });
  expect(before.results).toEqual([{ dimensions: ['edge'], metrics: [10] }]);
  expect((await client(fx.srv.url).patch(base(), { retention_months: 12 }, fx.a.token)).status).toBe(200);
  await trigger();
  const after = await query({ date_range: ['2020-01-01', '2030-12-31'], metrics: ['events'], dimensions: ['event:props:plan'], filters: [['is', 'event:props:plan', ['edge']]] });
  expect(after.results).toEqual([]);
  await sameAsScan();
  await fx.srv.stop();
  await indexMatchesEvents();
  expect(await queryStored(fx.srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM prop_values WHERE ts < ?::TIMESTAMP', [new Date(CUTOFF).toISOString()])).toEqual([{ n: 0 }]);
  await restart();
}, 60_000);

test('a data directory from before the index gets it backfilled at start, sorted by key', async () => {
  await fx.srv.stop();
  const rows = await indexMatchesEvents();
  await execStored(fx.srv.dataDir, ['DROP TABLE prop_values', `DELETE FROM schema_migrations WHERE name = '0015-prop-values.sql'`]);
  await restart();
  await sameAsScan();
  await fx.srv.stop();
  expect(await indexMatchesEvents()).toBe(rows);
  // Stored in key order: a key's rows are contiguous, so one key's query reads only its row groups.
  const runs = await queryStored<{ n: number }>(fx.srv.dataDir, `SELECT count(*)::INTEGER AS n FROM (SELECT key IS DISTINCT FROM lag(key) OVER (ORDER BY rowid) AS starts FROM prop_values) WHERE starts`);
  expect(runs).toEqual([{ n: 2 }]);
  await restart();
}, 60_000);

test('deleting the site deletes its index rows', async () => {
  expect((await client(fx.srv.url).del(base(), fx.a.token)).status).toBe(200);
  await fx.srv.stop();
  expect(await queryStored(fx.srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM prop_values WHERE site_id = ?', [fx.a.site.id])).toEqual([{ n: 0 }]);
  await restart();
}, 60_000);
