// The hot-event flush beside the writers' queue (storage/hot-flush-aside.ts): imports load while it writes its
// files, and nothing is lost or doubled; an import that joins visits it bridged while the flush is under way
// makes the flush give up, and the next flush (in the queue) writes the joined visit's events as they are now; so
// does an erasure of a visitor with hot events.
// TERN_TEST_PAUSE_AT holds the flush 10 s after its files are written, outside the queue; TERN_TEST_HOT_FLUSH_ROWS
// flushes at 2,000 hot events instead of a million.
import { afterEach, expect, test } from 'bun:test';
import { sameReports, setupAccount, siteReport } from '../helpers/api.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { importLines } from '../helpers/import.ts';
import { queryStored, storedRelation } from '../helpers/inspect-db.ts';
import { generateEvents, type ImportEvent } from '../../bench/generate.ts';

const ENV = { TERN_TEST_HOT_FLUSH_ROWS: '2000', TERN_TEST_PAUSE_AT: 'hot-flush:written@10000' };
const RANGE = 'period=custom&from=2026-05-20&to=2026-06-01';
const REPORTS = [
  `stats?${RANGE}`, `charts?${RANGE}`,
  ...['page', 'entry_page', 'exit_page'].map((d) => `pages?${RANGE}&dimension=${d}&limit=1000`),
  `sources?${RANGE}&dimension=source&limit=1000`, `revenue?${RANGE}`,
];

let srv: TestServer | undefined;
afterEach(async () => { await srv?.cleanup(); srv = undefined; });

type Acct = Awaited<ReturnType<typeof setupAccount>>;
const ok = async (acct: Acct, lines: object[]) => {
  const r = await importLines(srv!.url, acct, lines);
  expect(r.status).toBe(200);
  expect(r.body.data.imported).toBe(lines.length);
};
const report = siteReport;
/** Every report of `hot` equals that of `ref` (the same events imported in small pieces, written to Parquet at once). */
const same = (a: Acct, b: Acct) => sameReports(expect, a, b, REPORTS);
const logCount = (text: string) => srv!.logs().split('\n').filter((l) => l.includes(text)).length;
const until = async (what: () => boolean, label: string) => {
  for (let i = 0; i < 600 && !what(); i++) await Bun.sleep(100);
  if (!what()) throw new Error(`timed out waiting for ${label}:\n${srv!.logs().slice(-3000)}`);
};
/** Log lines of the steps that tell the order: the flush paused aside, imports loaded, the flush committed or gave up. */
const steps = () => srv!.logs().split('\n').flatMap((l) =>
  l.includes('"paused"') ? ['paused'] : l.includes('import loaded') ? ['import'] : l.includes('flushed beside imports') ? ['flushed'] : l.includes('flush gave up') ? ['gave up'] : []);
const siteRows = async (tbl: 'events' | 'visits', siteId: string, where = 'true') =>
  queryStored<Record<string, any>>(srv!.dataDir, `SELECT * FROM ${await storedRelation(srv!.dataDir, tbl)} WHERE site_id = ? AND ${where}`, [siteId]);

test('imports load while the hot events are flushed beside them; nothing is lost or doubled', async () => {
  srv = await startServer({ env: ENV });
  const events = [...generateEvents({ events: 4000, seed: 8, days: 10, end: new Date('2026-06-01T00:00:00Z') })];
  const ref = await setupAccount(srv.url);
  const hot = await setupAccount(srv.url);
  for (let i = 0; i < 4000; i += 500) await ok(ref, events.slice(i, i + 500));

  await ok(hot, events.slice(0, 1000));
  await ok(hot, events.slice(1000, 2000));
  // 2,000 hot events: the flush starts beside the queue and waits, its files written; the next import loads meanwhile.
  await until(() => logCount('"paused"') === 1, 'the flush to write its files');
  await ok(hot, events.slice(2000, 3000));
  await until(() => logCount('flushed beside imports') === 1, 'the flush to commit');
  expect(steps().slice(-3)).toEqual(['paused', 'import', 'flushed']);
  await ok(hot, events.slice(3000, 4000));
  await same(hot, ref);

  // The import that came during the flush stays hot (outside its snapshot) until the next flush; every event once.
  await until(() => logCount('flushed beside imports') === 2, 'the second flush');
  await same(hot, ref);
  await srv.stop();
  const key = (e: Record<string, any>) => `${e.ts}|${e.path}|${e.event_type}|${e.event_name}`;
  const [hotRows, refRows] = [await siteRows('events', hot.site.id), await siteRows('events', ref.site.id)];
  expect(hotRows.length).toBe(4000);
  expect(hotRows.map(key).sort()).toEqual(refRows.map(key).sort());
  expect((await queryStored<{ n: number }>(srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM events WHERE site_id = ?', [hot.site.id]))[0]!.n).toBe(0);
}, 240_000);

test('a flush beside the queue gives up when an import joins visits it bridged; the next flush writes the joined visit', async () => {
  srv = await startServer({ env: ENV });
  const filler = [...generateEvents({ events: 3000, seed: 9, days: 10, end: new Date('2026-06-01T00:00:00Z') })];
  const t = Date.parse('2026-05-25T12:00:00Z');
  const bridge = (min: number, i: number): ImportEvent => ({ ...filler[0]!, visitor_uid: 'bridge', event_type: 'pageview', timestamp: new Date(t + min * 60_000).toISOString(), url: `https://example.com/bridge/${i}` });
  // Two visits of the bridge visitor 50 minutes apart, then an event between them that makes them one.
  const pieces = [[...filler.slice(0, 1000), bridge(0, 0), bridge(50, 2)], filler.slice(1000, 2000), [...filler.slice(2000, 3000), bridge(25, 1)]];
  const ref = await setupAccount(srv.url);
  const hot = await setupAccount(srv.url);
  for (const p of pieces) for (let i = 0; i < p.length; i += 500) await ok(ref, p.slice(i, i + 500));

  await ok(hot, pieces[0]!);
  await ok(hot, pieces[1]!);
  await until(() => logCount('"paused"') === 1, 'the flush to write its files');
  await ok(hot, pieces[2]!);
  await until(() => logCount('flush gave up') === 1, 'the flush to give up');
  expect(steps()).toContain('gave up');
  expect(logCount('flushed beside imports')).toBe(0);
  await same(hot, ref);
  expect((await report(hot, `stats?${RANGE}`)).metrics.visits).toBe((await report(ref, `stats?${RANGE}`)).metrics.visits);

  // The next large import's flush runs in the queue (after one that gave up) and writes every hot event.
  const more = filler.slice(0, 2000).map((e) => ({ ...e, visitor_uid: `${e.visitor_uid}-again`, timestamp: new Date(Date.parse(e.timestamp) - 86_400_000).toISOString() }));
  await ok(hot, more);
  expect(logCount('flushed beside imports')).toBe(0);
  await srv.stop();
  expect((await queryStored<{ n: number }>(srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM events WHERE site_id = ?', [hot.site.id]))[0]!.n).toBe(0);
  const visits = await siteRows('visits', hot.site.id, `entry_page = '/bridge/0'`);
  expect(visits.map((v) => ({ events: v.events, exit: v.exit_page }))).toEqual([{ events: 3, exit: '/bridge/2' }]);
  const bridged = await siteRows('events', hot.site.id, `path LIKE '/bridge/%'`);
  expect(bridged.map((e) => e.path).sort()).toEqual(['/bridge/0', '/bridge/1', '/bridge/2']);
  expect(new Set(bridged.map((e) => String(e.visit_id)))).toEqual(new Set([String(visits[0]!.visit_id)]));
  expect((await siteRows('events', hot.site.id)).length).toBe(5003);
}, 240_000);

test('an erasure while a flush is under way beside the queue makes it give up; the erased visitor stays erased', async () => {
  srv = await startServer({ env: ENV });
  const events = [...generateEvents({ events: 2000, seed: 10, days: 10, end: new Date('2026-06-01T00:00:00Z') })];
  const ref = await setupAccount(srv.url);
  const hot = await setupAccount(srv.url);
  for (let i = 0; i < 2000; i += 500) await ok(ref, events.slice(i, i + 500));
  await ok(hot, events.slice(0, 1000));
  await ok(hot, events.slice(1000, 2000));
  await until(() => logCount('"paused"') === 1, 'the flush to write its files');
  const uid = events[0]!.visitor_uid;
  const erase = async (acct: Acct) => {
    const r = await acct.api.del(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/visitors?uid=${encodeURIComponent(uid)}`, acct.token);
    expect(r.status).toBe(200);
    return r.body.data.events_deleted;
  };
  const erased = await erase(hot);
  expect(erased).toBe(events.filter((e) => e.visitor_uid === uid).length);
  expect(await erase(ref)).toBe(erased);
  await until(() => logCount('flush gave up') === 1, 'the flush to give up');
  expect(logCount('flushed beside imports')).toBe(0);
  await same(hot, ref);
  await srv.stop();
  const left = await siteRows('events', hot.site.id);
  expect(left.length).toBe(2000 - erased);
}, 240_000);
