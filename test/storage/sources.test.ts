// tableSource() reads a Parquet file wholly inside the range without the range's time test, and keeps the test on
// the files at its edges: events and visits on the range's first and last instants and just outside it count as
// before, over HTTP and for the relation itself (the same rows as every file read with the test).
import { beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';
import { storedRelation } from '../helpers/inspect-db.ts';
import { Database } from '../../src/storage/database.ts';
import { ParquetManifest } from '../../src/storage/parquet-layout.ts';
import { tableSource } from '../../src/storage/sources.ts';

const fx = withServer({ accounts: { a: { timezone: 'Europe/Berlin' } }, timeout: 60_000 });
const line = (ts: string, uid: string, path = '/') => ({ url: `https://example.com${path}`, timestamp: ts, visitor_uid: uid });
// One Parquet file per UTC month (each import compacts): March's file lies inside the March and the spring ranges,
// February's and April's hold their edges. Berlin: March 1 starts at 2026-02-28T23:00Z, April 1 at 2026-03-31T22:00Z.
const LINES = [
  line('2026-02-10T10:00:00Z', 'a'), line('2026-02-28T22:59:59.999Z', 'b'), line('2026-02-28T23:00:00Z', 'c', '/c'),
  line('2026-03-01T00:30:00Z', 'a', '/a'), line('2026-03-15T12:00:00Z', 'd'), line('2026-03-31T12:00:00Z', 'b', '/b'),
  line('2026-03-31T21:59:59.999Z', 'e', '/e'), line('2026-03-31T22:00:00Z', 'f'), line('2026-04-20T21:59:00Z', 'g'),
  line('2026-04-20T22:00:00Z', 'h', '/h'),
];
const RANGES = [['2026-03-01', '2026-03-31'], ['2026-02-15', '2026-04-20'], ['2026-02-01', '2026-04-30'], ['2026-03-10', '2026-03-20'], ['2026-04-01', '2026-04-20']];
/** Berlin's local midnight of a day in UTC (CET before March 29, CEST from it). */
const midnight = (day: string) => new Date(`${day}T00:00:00${day >= '2026-03-29' ? '+02:00' : '+01:00'}`).getTime();
const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const inRange = (from: string, to: string) => LINES.filter((l) => Date.parse(l.timestamp) >= midnight(from) && Date.parse(l.timestamp) < midnight(nextDay(to)));

beforeAll(async () => {
  for (const month of ['2026-02', '2026-03', '2026-04']) await importAll(fx.srv.url, fx.a, LINES.filter((l) => l.timestamp.startsWith(month)));
}, 60_000);

test('stats and pages over ranges whose edges cut files count the rows inside the range, and only those', async () => {
  const api = client(fx.srv.url);
  const base = `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/analytics`;
  for (const [from, to] of RANGES) {
    const want = inRange(from!, to!);
    const stats = await api.get(`${base}/stats?period=custom&from=${from}&to=${to}`, fx.a.token);
    expect(stats.status).toBe(200);
    const visitors = new Set(want.map((l) => l.visitor_uid)).size;
    expect({ from, to, pageviews: stats.body.data.metrics.pageviews, visitors: stats.body.data.metrics.visitors, visits: stats.body.data.metrics.visits })
      .toEqual({ from, to, pageviews: want.length, visitors, visits: want.length });
    const pages = await api.get(`${base}/pages?period=custom&from=${from}&to=${to}&limit=100`, fx.a.token);
    const perPage = new Map<string, Set<string>>();
    for (const l of want) perPage.set(new URL(l.url).pathname, (perPage.get(new URL(l.url).pathname) ?? new Set()).add(l.visitor_uid));
    expect(new Map(pages.body.data.results.map((r: any) => [r.name, r.visitors]))).toEqual(new Map([...perPage].map(([p, s]) => [p, s.size])));
  }
}, 120_000);

test('the files inside the range are read without the time test, the edge files with it; the rows equal the tested read of every file', async () => {
  await fx.srv.stop();
  const db = await Database.open(fx.srv.dataDir, 1, '256MB');
  try {
    const files = new ParquetManifest(fx.srv.dataDir);
    await files.load(db);
    for (const tbl of ['events', 'visits'] as const) {
      const time = tbl === 'events' ? 'ts' : 'start_ts';
      const every = await storedRelation(fx.srv.dataDir, tbl);
      for (const [from, to] of RANGES) {
        const range = { fromUtc: new Date(midnight(from!)).toISOString(), toUtc: new Date(midnight(nextDay(to!))).toISOString() };
        const { inside, edges } = files.split(tbl, fx.a.site.id, range);
        const src = tableSource(files, tbl, fx.a.site.id, range);
        const unfiltered = [...src.sql.matchAll(/read_parquet\(\?::VARCHAR\[\](, union_by_name = true)?\)(?! WHERE)/g)].length;
        expect({ tbl, from, unfiltered, tested: src.sql.split(`${time} >= ?`).length - 1 }).toEqual({ tbl, from, unfiltered: inside.length ? 1 : 0, tested: 1 + (edges.length ? 1 : 0) });
        const q = (rel: string) => `SELECT count(*) AS n, count(DISTINCT visitor_id) AS v, min(${time})::VARCHAR AS lo, max(${time})::VARCHAR AS hi FROM ${rel}`;
        const now = await db.query(q(src.sql), src.params);
        const before = await db.query(q(`(SELECT * FROM ${every} WHERE site_id = ? AND ${time} >= ?::TIMESTAMP AND ${time} < ?::TIMESTAMP)`), [fx.a.site.id, range.fromUtc, range.toUtc]);
        expect({ tbl, from, to, rows: now }).toEqual({ tbl, from, to, rows: before });
        if (tbl === 'events') expect(Number(now[0]!.n)).toBe(inRange(from!, to!).length);
      }
      // Not vacuous: some range reads a file inside it and some a file at its edge.
      const splits = RANGES.map(([from, to]) => files.split(tbl, fx.a.site.id, { fromUtc: new Date(midnight(from!)).toISOString(), toUtc: new Date(midnight(nextDay(to!))).toISOString() }));
      expect(splits.some((s) => s.inside.length > 0) && splits.some((s) => s.edges.length > 0)).toBe(true);
    }
  } finally {
    await db.close();
  }
}, 60_000);

