// Merges beside the writers' queue (storage/compaction-merge.ts): another site's import loads and answers while a
// merge writes its file, and the merge then swaps it in; an erasure of a visitor whose rows are in the parts makes
// the merge drop its file, so the erased rows do not come back, and the next round merges the files as they are.
// Compaction every 100 ms (TERN_TEST_COMPACTION_MS; imports quiet for 200 ms let it merge) merges a month's files
// once four of one size wait; TERN_TEST_PAUSE_AT holds each merge 6 s after its file is written, outside the queue.
import { afterEach, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sameReports, setupAccount, siteReport } from '../helpers/api.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { importAll } from '../helpers/import.ts';
import { queryStored } from '../helpers/inspect-db.ts';
import { generateEvents } from '../../bench/generate.ts';

const ENV = { TERN_TEST_COMPACTION_MS: '100', TERN_TEST_PAUSE_AT: 'compaction:merge-written@6000' };
const RANGE = 'period=custom&from=2026-05-01&to=2026-05-31';
const REPORTS = [`stats?${RANGE}`, `charts?${RANGE}`, `pages?${RANGE}&limit=1000`, `pages?${RANGE}&dimension=entry_page&limit=1000`, `sources?${RANGE}&limit=1000`, `devices?${RANGE}&limit=1000`];
// Four pieces of 250 events in May (one tier: three digits), then 500 for the other site.
const events = [...generateEvents({ events: 1500, seed: 21, days: 20, end: new Date('2026-05-28T00:00:00Z') })];
const pieces = [0, 1, 2, 3].map((i) => events.slice(i * 250, i * 250 + 250));

let srv: TestServer | undefined;
afterEach(async () => { await srv?.cleanup(); srv = undefined; }, 60_000);

type Acct = Awaited<ReturnType<typeof setupAccount>>;
const logLines = (text: string) => srv!.logs().split('\n').filter((l) => l.includes(text));
const until = async (what: () => boolean, label: string) => {
  for (let i = 0; i < 600 && !what(); i++) await Bun.sleep(50);
  if (!what()) throw new Error(`timed out waiting for ${label}:\n${srv!.logs().slice(-3000)}`);
};
const report = siteReport;
const same = (a: Acct, b: Acct) => sameReports(expect, a, b, REPORTS);
/**
 * The site's registered events files, and those on disk (the server stopped): equal when no merge left its file
 * behind. Events only: a visits file an import's continued visits replaced waits out its grace period on disk.
 */
async function eventFiles(siteId: string) {
  const registered = (await queryStored<{ path: string }>(srv!.dataDir, "SELECT path FROM parquet_files WHERE site_id = ? AND tbl = 'events'", [siteId])).map((r) => r.path).sort();
  const walk = (d: string): string[] => { try { return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)])); } catch { return []; } };
  const onDisk = walk(join(srv!.dataDir, 'parquet', 'events', `site=${siteId}`)).filter((p) => p.endsWith('.parquet')).map((p) => p.slice(srv!.dataDir.length + 1)).sort();
  return { registered, onDisk };
}

const mergedLines = () => logLines('"compacted"').map((l) => JSON.parse(l)).filter((l) => l.merged > 0);

/** Imports the four pieces: the next round merges the site's May files, and pauses beside the queue. */
async function mergeUnderWay(acct: Acct) {
  for (const p of pieces) await importAll(srv!.url, acct, p);
  await until(() => logLines('"paused"').length === 1, 'the merge to write its file');
  expect(mergedLines()).toEqual([]);
}

test('another site loads while a merge writes beside the queue; the merged file then replaces its parts', async () => {
  srv = await startServer({ env: ENV });
  const [merging, other, ref] = [await setupAccount(srv.url), await setupAccount(srv.url), await setupAccount(srv.url)];
  await importAll(srv.url, ref, events.slice(0, 1000));
  await mergeUnderWay(merging);

  // The other site's import loads in the writers' queue and answers while the merge is paused outside it.
  const t0 = Date.now();
  expect((await importAll(srv.url, other, events.slice(1000, 1500))).imported).toBe(500);
  expect(Date.now() - t0).toBeLessThan(4000);
  expect(mergedLines()).toEqual([]);
  expect((await report(other, `stats?${RANGE}`)).metrics.pageviews).toBeGreaterThan(0);
  // Reports read the four parts meanwhile.
  await same(merging, ref);

  await until(() => mergedLines().length > 0, 'the merge to swap its file in');
  expect(mergedLines()[0].merged).toBeGreaterThanOrEqual(4);
  await same(merging, ref);
  await srv.stop();
  const { registered, onDisk } = await eventFiles(merging.site.id);
  expect(registered.length).toBe(1);
  expect(onDisk).toEqual(registered);
}, 120_000);

test('an erasure while a merge is under way makes it drop its file; the erased visitor stays erased', async () => {
  srv = await startServer({ env: ENV });
  const [merging, ref] = [await setupAccount(srv.url), await setupAccount(srv.url)];
  await importAll(srv.url, ref, events.slice(0, 1000));
  await mergeUnderWay(merging);

  const uid = pieces[0]![0]!.visitor_uid;
  const erase = async (acct: Acct) => {
    const r = await acct.api.del(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/visitors?uid=${encodeURIComponent(uid!)}`, acct.token);
    expect(r.status).toBe(200);
    return r.body.data.events_deleted as number;
  };
  const erased = await erase(merging);
  expect(erased).toBe(events.slice(0, 1000).filter((e) => e.visitor_uid === uid).length);
  expect(erased).toBeGreaterThan(0);
  expect(await erase(ref)).toBe(erased);

  // The paused merge read a part the erasure replaced: it drops its file; a later round merges the files as they are.
  await until(() => logLines('merge dropped').length > 0, 'the merge to drop its file');
  expect(mergedLines()).toEqual([]);
  await same(merging, ref);
  await until(() => mergedLines().length > 0, 'the next merge');
  await same(merging, ref);
  await srv.stop();
  const { registered, onDisk } = await eventFiles(merging.site.id);
  expect(onDisk).toEqual(registered);
  const list = registered.map((p) => `'${join(srv!.dataDir, p).replaceAll("'", "''")}'`).join(', ');
  const rows = await queryStored<{ n: number }>(srv.dataDir, `SELECT count(*)::INTEGER AS n FROM read_parquet([${list}])`);
  expect(rows[0]!.n).toBe(1000 - erased);
}, 120_000);
