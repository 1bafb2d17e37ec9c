// The loader's cadence: sealed log segments wait for INGEST_LOAD_INTERVAL_MS and then load together;
// SIGTERM loads what is waiting at once. Acknowledged events are durable throughout (durability.test.ts).
import { afterEach, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';

let srv: TestServer | undefined;
afterEach(async () => { await srv?.cleanup(); srv = undefined; });

const pageviewsToday = async (acct: Awaited<ReturnType<typeof setupAccount>>) =>
  (await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/stats?period=day`, acct.token)).body.data.metrics.pageviews as number;

test('segments sealed within the interval load together once the oldest has waited for it', async () => {
  srv = await startServer({ env: { INGEST_LOAD_INTERVAL_MS: '4000' } });
  const acct = await setupAccount(srv.url);
  const sent = Date.now();
  // Three segments: the log seals one a second.
  for (let i = 0; i < 3; i++) {
    expect(await sendEvent(srv.url, { site_id: acct.site.public_id, url: `https://example.com/p${i}` })).toBe(202);
    if (i < 2) await Bun.sleep(1200);
  }
  // The first segment is sealed about a second after its event and then waits 4 s: nothing is loaded yet.
  expect(await pageviewsToday(acct)).toBe(0);
  let seen = 0;
  while (seen < 3 && Date.now() - sent < 20_000) {
    await Bun.sleep(100);
    seen = await pageviewsToday(acct);
  }
  expect(seen).toBe(3);
  expect(Date.now() - sent).toBeGreaterThanOrEqual(4000);
  expect(await srv.stop()).toBe(0);
  // One load, so one events file for the site and month.
  const files = await queryStored<{ n: number }>(srv.dataDir, `SELECT count(*)::INTEGER AS n FROM parquet_files WHERE tbl = 'events'`);
  expect(files[0]!.n).toBe(1);
}, 30_000);

test('a queue holding more than one load (40 MiB) loads without waiting for the interval', async () => {
  srv = await startServer({ env: { INGEST_LOAD_INTERVAL_MS: '60000' } });
  const acct = await setupAccount(srv.url);
  // ~3.3 KB log lines (the URL and its path, ~1,400 characters each, and the title): 24,000 make ~75 MiB of segments.
  const title = 't'.repeat(480);
  const sent = Date.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < 24_000; i = next++) {
      expect(await sendEvent(srv!.url, { site_id: acct.site.public_id, url: `https://example.com/${'p'.repeat(1400)}/${i}`, title })).toBe(202);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  let seen = 0;
  while (seen === 0 && Date.now() - sent < 45_000) {
    await Bun.sleep(250);
    seen = await pageviewsToday(acct);
  }
  // Well before the 60-s interval, a first load of at most 40 MiB (some 12,000 events) has committed.
  expect(seen).toBeGreaterThan(0);
  expect(seen).toBeLessThan(24_000);
  expect(await srv.stop()).toBe(0);
  const [{ n }] = await queryStored<{ n: number }>(srv.dataDir, `SELECT count(*)::INTEGER AS n FROM ${await storedRelation(srv.dataDir, 'events')}`);
  expect(n).toBe(24_000);
}, 90_000);

test('SIGTERM loads the waiting segments at once', async () => {
  srv = await startServer({ env: { INGEST_LOAD_INTERVAL_MS: '60000' } });
  const acct = await setupAccount(srv.url);
  for (let i = 0; i < 5; i++) expect(await sendEvent(srv.url, { site_id: acct.site.public_id, url: `https://example.com/q${i}` })).toBe(202);
  const t0 = Date.now();
  expect(await srv.stop()).toBe(0);
  expect(Date.now() - t0).toBeLessThan(30_000);
  const [{ n }] = await queryStored<{ n: number }>(srv.dataDir, `SELECT count(*)::INTEGER AS n FROM ${await storedRelation(srv.dataDir, 'events')}`);
  expect(n).toBe(5);
});

test('INGEST_LOAD_INTERVAL_MS must be a whole number of milliseconds up to a minute', async () => {
  await expect(startServer({ env: { INGEST_LOAD_INTERVAL_MS: '90000' } })).rejects.toThrow(/INGEST_LOAD_INTERVAL_MS/);
});
