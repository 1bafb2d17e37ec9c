// The minute's compaction waits while a migration's imports keep arriving (closed visits and merges would run in
// the writers' queue between its requests), runs soon after they stop, and does not wait once the hot visits
// reach their bound. Compaction every second here (TERN_TEST_COMPACTION_MS): imports quiet for 2 s release it.
import { afterEach, expect, test } from 'bun:test';
import { setupAccount } from '../helpers/api.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { importAll } from '../helpers/import.ts';
import { generateEvents, type ImportEvent } from '../../bench/generate.ts';

let srv: TestServer | undefined;
// Stopping waits for a paused compaction round to finish: past bun test's 5 s default for hooks.
afterEach(async () => { await srv?.cleanup(); srv = undefined; }, 60_000);

const lines = (text: string) => srv!.logs().split('\n').filter((l) => l.includes(text));
async function until(what: () => boolean, label: string, ms = 30_000) {
  const end = Date.now() + ms;
  while (!what() && Date.now() < end) await Bun.sleep(50);
  if (!what()) throw new Error(`timed out waiting for ${label}:\n${srv!.logs().slice(-3000)}`);
}

/** Past visits (all closed), in 1,000-line requests: each large enough to stay hot, as a migration's are. */
function history(events: number): { batches: ImportEvent[][]; visits: number } {
  const all = [...generateEvents({ events, seed: 11, days: 20, end: new Date('2026-06-01T00:00:00Z') })];
  let visits = 0;
  for (let i = 0; i < all.length; i++) {
    const a = all[i - 1];
    const b = all[i]!;
    if (!a || a.visitor_uid !== b.visitor_uid || Date.parse(b.timestamp) - Date.parse(a.timestamp) >= 30 * 60_000) visits++;
  }
  const batches: ImportEvent[][] = [];
  for (let i = 0; i < all.length; i += 1000) batches.push(all.slice(i, i + 1000));
  return { batches, visits };
}

async function visitsStored(acct: Awaited<ReturnType<typeof setupAccount>>) {
  const r = await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/stats?period=custom&from=2026-05-01&to=2026-06-01`, acct.token);
  expect(r.status).toBe(200);
  return r.body.data.metrics.visits;
}

test('compaction is held back while imports keep arriving and runs once they stop; every visit is kept', async () => {
  srv = await startServer({ env: { TERN_TEST_COMPACTION_MS: '1000' } });
  const acct = await setupAccount(srv.url);
  const { batches, visits } = history(16_000);
  const t0 = Date.now();
  for (const b of batches) expect((await importAll(srv.url, acct, b)).imported).toBe(b.length);
  const streamMs = Date.now() - t0;
  const streamed = srv.logs().split('\n').length;
  // Imports quiet for two ticks: the held round runs and moves every closed visit to Parquet.
  const afterHeld = () => srv!.logs().split('held compaction ran')[1] ?? '';
  await until(() => afterHeld().includes('"compacted"'), 'the held round to run');
  const log = srv.logs().split('\n');
  const held = log.findIndex((l) => l.includes('compaction held back while imports arrive'));
  const ran = log.findIndex((l) => l.includes('held compaction ran'));
  expect(held).toBeGreaterThan(-1);
  // Between: imports only, no round writing closed visits (a tick before the first import registered may have).
  expect(log.slice(held, ran).filter((l) => l.includes('"compacted"'))).toEqual([]);
  // Bounded at ten ticks: a stream shorter than that was over before the held round ran.
  if (streamMs < 9_000) expect(ran).toBeGreaterThanOrEqual(streamed - 1);
  const round = afterHeld().split('\n').find((l) => l.includes('"compacted"'))!;
  expect(JSON.parse(round).visits).toBeGreaterThan(0);
  expect(await visitsStored(acct)).toBe(visits);
}, 120_000);

test('a round is not held back while the hot visits are at their bound', async () => {
  srv = await startServer({ env: { TERN_TEST_COMPACTION_MS: '500', TERN_TEST_HOLD_MAX_VISITS: '1' } });
  const acct = await setupAccount(srv.url);
  const { batches, visits } = history(16_000);
  const t0 = Date.now();
  let roundsWhileStreaming = 0;
  for (const b of batches) {
    expect((await importAll(srv.url, acct, b)).imported).toBe(b.length);
    roundsWhileStreaming = lines('"compacted"').filter((l) => JSON.parse(l).visits > 0).length;
  }
  // Every tick (0.5 s) that found a visit waiting wrote it: a stream of several seconds saw several such rounds.
  if (Date.now() - t0 > 3_000) expect(roundsWhileStreaming).toBeGreaterThanOrEqual(3);
  expect(await visitsStored(acct)).toBe(visits);
}, 120_000);

test('a round the bound releases while imports arrive writes the closed visits and leaves merges until they stop', async () => {
  // Hot events flushed every 2,000 (a month's small files pile up to merge) and every round at the visits' bound.
  // Each round's visits step takes 1.5 s, longer than the 1 s quiet time: the import waiting behind it must still
  // count as arriving when the round comes to its merges.
  srv = await startServer({ env: { TERN_TEST_COMPACTION_MS: '500', TERN_TEST_HOLD_MAX_VISITS: '1', TERN_TEST_HOT_FLUSH_ROWS: '2000', TERN_TEST_PAUSE_AT: 'compaction:visits-written@1500' } });
  const acct = await setupAccount(srv.url);
  const { batches, visits } = history(16_000);
  for (const b of batches) expect((await importAll(srv.url, acct, b)).imported).toBe(b.length);
  const streamed = srv.logs().length;
  const rounds = (text: string) => text.split('\n').filter((l) => l.includes('"compacted"')).map((l) => JSON.parse(l));
  // While the imports arrived: rounds wrote closed visits, none merged files.
  const during = rounds(srv.logs().slice(0, streamed));
  expect(during.filter((r) => r.visits > 0).length).toBeGreaterThan(0);
  expect(during.filter((r) => r.merged > 0)).toEqual([]);
  // Once they stop (2 s quiet), a round merges the small files they left.
  await until(() => rounds(srv!.logs().slice(streamed)).some((r) => r.merged > 0), 'a round merging files after the imports');
  expect(await visitsStored(acct)).toBe(visits);
}, 120_000);
