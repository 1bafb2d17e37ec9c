// 202 means durable: a SIGKILL during ingestion loses no acknowledged event, and replaying the log never doubles one.
import { afterAll, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { queryStored, sendEvent } from './inspect-db.ts';

let srv: TestServer | undefined;
const spare = mkdtempSync(join(tmpdir(), 'tern-log-copy-'));
afterAll(async () => {
  await srv?.cleanup();
  rmSync(spare, { recursive: true, force: true });
});

/** Restart on the same DATA_DIR; one request makes sure main.ts has installed its SIGTERM handler. */
async function restart(dataDir: string) {
  const s = await startServer({ dataDir });
  await (await fetch(`${s.url}/health`)).text();
  return s;
}

async function storedIds(dataDir: string) {
  const rows = await queryStored<{ n: string; c: number }>(dataDir, `SELECT props['n'] AS n, count(*)::INTEGER AS c FROM events GROUP BY 1`);
  return new Map(rows.map((r) => [r.n, r.c]));
}

test('kill -9 mid-ingestion: after restart every acknowledged event is stored exactly once', async () => {
  srv = await startServer();
  const acct = await setupAccount(srv.url);
  const acked = new Set<string>();
  const sent = new Set<string>();
  let next = 0;
  let stop = false;
  // Eight concurrent senders; the kill lands while requests are in flight.
  const sender = async () => {
    while (!stop) {
      const n = String(next++);
      sent.add(n);
      try {
        const status = await sendEvent(srv!.url, { site_id: acct.site.public_id, url: `https://example.com/p${Number(n) % 7}`, visitor_uid: `v${Number(n) % 13}`, properties: { n } });
        if (status === 202) acked.add(n);
      } catch {
        return; // connection died with the server
      }
    }
  };
  const senders = Array.from({ length: 8 }, sender);
  while (acked.size < 1500) await Bun.sleep(5);
  await srv.kill();
  stop = true;
  await Promise.all(senders);
  // Keep a copy of what the crash left in the log, to replay it a second time below.
  cpSync(join(srv.dataDir, 'log'), spare, { recursive: true });
  const leftover = readdirSync(spare).length;

  srv = await restart(srv.dataDir);
  expect(await srv.stop()).toBe(0);
  const ids = await storedIds(srv.dataDir);
  for (const n of acked) expect(ids.get(n)).toBe(1);
  for (const [n, c] of ids) {
    expect(sent.has(n)).toBe(true);
    expect(c).toBe(1);
  }
  const [{ visits }] = await queryStored<{ visits: number }>(srv.dataDir, 'SELECT sum(events)::INTEGER AS visits FROM visits');
  expect(visits).toBe(ids.size);

  // The same segments again (as if the crash came between the load's commit and the file's deletion): no doubles.
  if (leftover) {
    cpSync(spare, join(srv.dataDir, 'log'), { recursive: true });
    srv = await restart(srv.dataDir);
    expect(await srv.stop()).toBe(0);
    expect(await storedIds(srv.dataDir)).toEqual(ids);
  }
  expect(acked.size).toBeGreaterThanOrEqual(1500);
});

test('SIGTERM flushes every accepted event into the database before exit', async () => {
  srv = await startServer();
  const acct = await setupAccount(srv.url);
  const statuses = await Promise.all(
    Array.from({ length: 300 }, (_, i) => sendEvent(srv!.url, { site_id: acct.site.public_id, url: 'https://example.com/', properties: { n: String(i) } })),
  );
  expect(statuses.every((s) => s === 202)).toBe(true);
  expect(await srv.stop()).toBe(0);
  expect(readdirSync(join(srv.dataDir, 'log'))).toEqual([]);
  expect((await storedIds(srv.dataDir)).size).toBe(300);
});
