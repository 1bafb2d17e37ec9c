// Without TRUST_PROXY the event route takes the client's IP from the TCP peer, never from X-Forwarded-For.
import { afterAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';

let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); });

test('an untrusted X-Forwarded-For is ignored: the socket peer keys the anonymous visitor and the location', async () => {
  srv = await startServer();
  const acct = await setupAccount(srv.url);
  const ev = (path: string, ip: string) => sendEvent(srv!.url, { site_id: acct.site.public_id, url: `https://example.com${path}` }, { 'x-forwarded-for': ip });
  expect(await ev('/a', '8.8.8.8')).toBe(202);
  expect(await ev('/b', '81.2.69.142')).toBe(202);
  expect(await srv.stop()).toBe(0);
  const rows = await queryStored(srv.dataDir, `SELECT path, visitor_id, visit_id, country FROM ${await storedRelation(srv.dataDir, 'events')} ORDER BY ts`);
  expect(rows.map((r) => r.path)).toEqual(['/a', '/b']);
  // Both came from 127.0.0.1 with one user agent: one visitor, one visit, and loopback has no country.
  expect(rows[1]!.visitor_id).toBe(rows[0]!.visitor_id);
  expect(rows[1]!.visit_id).toBe(rows[0]!.visit_id);
  expect(rows.map((r) => r.country)).toEqual([null, null]);
});
