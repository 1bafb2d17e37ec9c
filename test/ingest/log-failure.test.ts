// A write the disk refuses (here: past the file-size limit, as a full disk would) answers 503 and stores
// nothing of its batch, while every event acknowledged before and after it is stored exactly once.
import { afterAll, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { BROWSER_UA, queryStored, storedRelation } from '../helpers/inspect-db.ts';

let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); });

/** ~20 KB per event: 2 MiB of log (the limit below) is about a hundred of them. */
const bigEvent = (siteId: string, n: number) => ({
  site_id: siteId,
  url: `https://example.com/${'a'.repeat(1900)}`,
  title: 't'.repeat(500),
  properties: { n: String(n), ...Object.fromEntries(Array.from({ length: 29 }, (_, i) => [`k${i}`, 'v'.repeat(500)])) },
});

test('a log write the disk refuses answers 503 with CORS; acknowledged events load exactly once, refused ones never', async () => {
  srv = await startServer({ fileSizeLimitKb: 2048 });
  const acct = await setupAccount(srv.url);
  const answers = new Map<number, Response>();
  // Bursts until a segment outgrows the limit within its second (the first burst does, on any machine this suite runs on).
  for (let burst = 0; burst < 10 && ![...answers.values()].some((r) => r.status === 503); burst++) {
    const ids = Array.from({ length: 150 }, (_, i) => burst * 150 + i);
    const rs = await Promise.all(ids.map((n) => fetch(`${srv!.url}/api/v1/event`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA }, body: JSON.stringify(bigEvent(acct.site.public_id, n)),
    })));
    ids.forEach((n, i) => answers.set(n, rs[i]!));
  }
  const refused = [...answers].filter(([, r]) => r.status === 503);
  const accepted = [...answers].filter(([, r]) => r.status === 202).map(([n]) => String(n));
  expect(refused.length).toBeGreaterThan(0);
  expect(accepted.length).toBeGreaterThan(0);
  expect(refused.length + accepted.length).toBe(answers.size);
  const [, r] = refused[0]!;
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
  expect(r.headers.get('retry-after')).toBe('5');
  expect((await r.json()).error).toMatch(/could not be stored/);

  // Later events go to a new segment and are accepted.
  const after = await fetch(`${srv.url}/api/v1/event`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
    body: JSON.stringify({ site_id: acct.site.public_id, url: 'https://example.com/after', properties: { n: 'after' } }),
  });
  expect(after.status).toBe(202);

  expect(await srv.stop()).toBe(0);
  const rows = await queryStored<{ n: string; c: number }>(srv.dataDir, `SELECT props['n'] AS n, count(*)::INTEGER AS c FROM ${await storedRelation(srv.dataDir, 'events')} GROUP BY 1`);
  const stored = new Map(rows.map((x) => [x.n, x.c]));
  expect([...stored.keys()].sort()).toEqual([...accepted, 'after'].sort());
  expect([...stored.values()].every((c) => c === 1)).toBe(true);
  // No segment was set aside as unreadable, and none is left waiting for a restart.
  expect(existsSync(join(srv.dataDir, 'log', 'failed'))).toBe(false);
  expect(srv.logs()).not.toContain('loads at the next start');
  expect(srv.logs()).toContain('ingest log write failed');
}, 60_000);
