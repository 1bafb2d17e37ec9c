// Loads that fail do not hold the server: out of memory is retried (never set aside), a stop leaves the
// failing segments in the log for the next start, and a start does not wait for a segment that fails.
import { afterAll, expect, test } from 'bun:test';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';

let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); });

const segments = (dataDir: string) => readdirSync(join(dataDir, 'log')).filter((f) => f.endsWith('.ndjson'));

async function until(cond: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await Bun.sleep(50);
  return cond();
}

test('out of memory: loads are retried, a stop exits at once leaving the segments, the next start loads them', async () => {
  // 16 MB is enough to start and answer, not to load these events.
  srv = await startServer({ env: { DUCKDB_MEMORY_LIMIT: '16MB', INGEST_LOAD_INTERVAL_MS: '100' } });
  const acct = await setupAccount(srv.url);
  const acked: string[] = [];
  await Promise.all(Array.from({ length: 8 }, async (_, w) => {
    for (let i = 0; i < 300; i++) {
      const n = `${w}-${i}`;
      const status = await sendEvent(srv!.url, { site_id: acct.site.public_id, url: `https://example.com/p${i}`, title: 'x'.repeat(400), visitor_uid: `v${w}-${i % 50}`, properties: { n } });
      if (status === 202) acked.push(n);
    }
  }));
  expect(acked.length).toBe(2400);
  expect(await until(() => /ingest load failed, will retry.*Out of Memory/.test(srv!.logs()), 15_000)).toBe(true);

  const t0 = performance.now();
  expect(await srv.stop()).toBe(0);
  expect(performance.now() - t0).toBeLessThan(15_000);
  expect(srv.logs()).toContain('segments left unloaded at stop');
  expect(segments(srv.dataDir).length).toBeGreaterThan(0);
  expect(existsSync(join(srv.dataDir, 'log', 'failed'))).toBe(false);

  srv = await startServer({ dataDir: srv.dataDir });
  expect(await srv.stop()).toBe(0);
  const rows = await queryStored<{ n: string; c: number }>(srv.dataDir, `SELECT props['n'] AS n, count(*)::INTEGER AS c FROM ${await storedRelation(srv.dataDir, 'events')} GROUP BY 1`);
  expect(rows.length).toBe(2400);
  expect(rows.every((r) => r.c === 1)).toBe(true);
  expect(segments(srv.dataDir)).toEqual([]);
}, 90_000);

test('a segment that fails to load at start does not keep the server from answering; a stop leaves it in the log', async () => {
  await srv?.cleanup();
  srv = await startServer();
  await setupAccount(srv.url);
  expect(await srv.stop()).toBe(0);
  writeFileSync(join(srv.dataDir, 'log', '000000000000001-000000.ndjson'), 'this is not JSON\n');

  srv = await startServer({ dataDir: srv.dataDir });
  expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  expect(srv.logs()).toContain('failed to load; retrying in the background');
  expect(await srv.stop()).toBe(0);
  expect(segments(srv.dataDir)).toEqual(['000000000000001-000000.ndjson']);
}, 60_000);
