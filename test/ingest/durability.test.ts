// 202 means durable: a SIGKILL during ingestion loses no acknowledged event, and replaying the log never doubles one.
import { afterAll, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';
import { toLine } from '../../src/ingest/log-format.ts';

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
  const rows = await queryStored<{ n: string; c: number }>(dataDir, `SELECT props['n'] AS n, count(*)::INTEGER AS c FROM ${await storedRelation(dataDir, 'events')} GROUP BY 1`);
  return new Map(rows.map((r) => [r.n, r.c]));
}

/** True when a segment in the log holds a zero byte: a zero-filled spare segment being written over. */
function writingOverZeros(logDir: string): boolean {
  for (const f of existsSync(logDir) ? readdirSync(logDir).filter((n) => n.endsWith('.ndjson')) : []) {
    try {
      const bytes = readFileSync(join(logDir, f));
      if (bytes.length && bytes.indexOf(0) > 0) return true;
    } catch {
      // sealed and loaded meanwhile
    }
  }
  return false;
}

/**
 * Eight concurrent senders; the kill lands while requests are in flight, once `ready` says so. After the
 * restart every acknowledged event is stored exactly once, and replaying the same segments again doubles none.
 */
async function killMidIngestion(ready: (acked: number, dataDir: string) => boolean) {
  srv = await startServer();
  const acct = await setupAccount(srv.url);
  const acked = new Set<string>();
  const sent = new Set<string>();
  let next = 0;
  let stop = false;
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
  while (!ready(acked.size, srv.dataDir)) await Bun.sleep(5);
  await srv.kill();
  stop = true;
  await Promise.all(senders);
  // Keep a copy of what the crash left in the log, to replay it a second time below.
  rmSync(spare, { recursive: true, force: true });
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
  expect(existsSync(join(srv.dataDir, 'log', 'failed'))).toBe(false);

  // The same segments again (as if the crash came between the load's commit and the file's deletion): no doubles.
  if (leftover) {
    cpSync(spare, join(srv.dataDir, 'log'), { recursive: true });
    srv = await restart(srv.dataDir);
    expect(await srv.stop()).toBe(0);
    expect(await storedIds(srv.dataDir)).toEqual(ids);
  }
  await srv.cleanup();
  srv = undefined;
  return acked.size;
}

test('kill -9 mid-ingestion: after restart every acknowledged event is stored exactly once', async () => {
  expect(await killMidIngestion((acked) => acked >= 1500)).toBeGreaterThanOrEqual(1500);
});

test('kill -9 while a busy log writes over a zero-filled segment: its zeros are cut, every acknowledged event stored once', async () => {
  // Past 256 KB in a segment the next one is zero-filled ahead of use; the kill waits until one is being written.
  const deadline = Date.now() + 20_000;
  const acked = await killMidIngestion((n, dataDir) => (n >= 1500 && writingOverZeros(join(dataDir, 'log'))) || Date.now() > deadline);
  expect(acked).toBeGreaterThanOrEqual(1500);
  expect(writingOverZeros(spare)).toBe(true);
}, 30_000);

test('SIGTERM flushes every accepted event into the database before exit', async () => {
  await srv?.cleanup();
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

test('a restart keeps the daily salt and the open visits: an anonymous visitor continues its visit', async () => {
  await srv?.cleanup();
  srv = await startServer({ env: { TRUST_PROXY: 'true' } });
  const acct = await setupAccount(srv.url);
  const anon = (path: string) => sendEvent(srv!.url, { site_id: acct.site.public_id, url: `https://example.com${path}` }, { 'x-forwarded-for': '203.0.113.9' });
  expect(await anon('/before')).toBe(202);
  expect(await srv.stop()).toBe(0);
  srv = await startServer({ dataDir: srv.dataDir, env: { TRUST_PROXY: 'true' } });
  expect(await anon('/after')).toBe(202);
  await (await fetch(`${srv.url}/health`)).text();
  expect(await srv.stop()).toBe(0);
  const rows = await queryStored<any>(srv.dataDir, `SELECT path, visitor_id, visit_id, engaged_path, engaged_hostname FROM ${await storedRelation(srv.dataDir, 'events')} ORDER BY ts`);
  expect(rows.map((r) => r.path)).toEqual(['/before', '/after']);
  // The page a pageview's engagement report is about survives the restart too.
  expect(rows.map((r) => [r.engaged_path, r.engaged_hostname])).toEqual([[null, null], ['/before', 'example.com']]);
  expect(rows[1].visitor_id).toBe(rows[0].visitor_id);
  expect(rows[1].visit_id).toBe(rows[0].visit_id);
  const visits = await queryStored<any>(srv.dataDir, `SELECT pageviews, entry_page, exit_page FROM visits`);
  expect(visits).toEqual([{ pageviews: 2, entry_page: '/before', exit_page: '/after' }]);
  const salts = await queryStored<any>(srv.dataDir, `SELECT day FROM ingest_salts ORDER BY day`);
  const today = new Date().toISOString().slice(0, 10);
  expect(salts.map((s) => s.day)).toContain(today);
  expect(salts.length).toBeLessThanOrEqual(3);
});

test('the record of loaded segments does not grow without bound', async () => {
  await srv?.cleanup();
  srv = await startServer();
  const acct = await setupAccount(srv.url);
  // Events in three separate log segments (a segment is sealed every second).
  for (let i = 0; i < 3; i++) {
    expect(await sendEvent(srv.url, { site_id: acct.site.public_id, url: `https://example.com/${i}` })).toBe(202);
    await Bun.sleep(1300);
  }
  expect(await srv.stop()).toBe(0);
  const [{ n }] = await queryStored<{ n: number }>(srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM ingest_segments');
  expect(n).toBeLessThanOrEqual(1);
  const [{ e }] = await queryStored<{ e: number }>(srv.dataDir, `SELECT count(*)::INTEGER AS e FROM ${await storedRelation(srv.dataDir, 'events')}`);
  expect(e).toBe(3);
});

test('a torn last line left by a crash is cut off at restart; the whole lines before it load', async () => {
  await srv?.cleanup();
  srv = await startServer();
  const acct = await setupAccount(srv.url);
  expect(await srv.stop()).toBe(0);
  const row = (n: number) => toLine({ ts: Date.UTC(2026, 0, 1), site_id: acct.site.id, visitor_id: 1, visit_id: 1, event_type: 'pageview', url: 'https://example.com/', path: '/', props: { n: String(n) } } as any);
  writeFileSync(join(srv.dataDir, 'log', '000000000000001-000000.ndjson'), `${row(1)}\n${row(2)}\n${row(3).slice(0, 20)}`);
  srv = await restart(srv.dataDir);
  expect(await srv.stop()).toBe(0);
  expect(await storedIds(srv.dataDir)).toEqual(new Map([['1', 1], ['2', 1]]));
  expect(existsSync(join(srv.dataDir, 'log', 'failed'))).toBe(false);
});

test('a segment written by an older server (before the engaged_* columns) replays into the right columns', async () => {
  await srv?.cleanup();
  srv = await startServer();
  const acct = await setupAccount(srv.url);
  expect(await srv.stop()).toBe(0);
  // The first log format: keys by position a, b, … with props at bh and the visitor's uid at bi.
  const legacy = { a: '2026-01-01T00:00:00.000Z', b: acct.site.id, c: 7, d: 7, e: 'pageview', g: 'https://example.com/old', i: '/old', bh: { k: 'v' }, bi: 'uid-from-old-log' };
  writeFileSync(join(srv.dataDir, 'log', '000000000000001-000000.ndjson'), `${JSON.stringify(legacy)}\n`);
  srv = await restart(srv.dataDir);
  expect(await srv.stop()).toBe(0);
  const events = await queryStored<any>(srv.dataDir, `SELECT path, engaged_path, props, ts::VARCHAR AS ts FROM ${await storedRelation(srv.dataDir, 'events')}`);
  expect(events).toMatchObject([{ path: '/old', engaged_path: null, ts: '2026-01-01 00:00:00' }]);
  const visitors = await queryStored<any>(srv.dataDir, 'SELECT uid FROM visitors WHERE visitor_id = 7');
  expect(visitors).toEqual([{ uid: 'uid-from-old-log' }]);
});
