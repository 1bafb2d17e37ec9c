// A request that takes longer than the idle timeout to answer still gets its answer (an erasure slowed down by a
// test hook past HTTP_IDLE_TIMEOUT_S), while a connection left quiet after its answer is still closed.
import { afterAll, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { fixtureLines, importFixture } from '../helpers/site-data.ts';

let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); });

test('an erasure that outlasts the idle timeout answers; a quiet keep-alive connection is closed', async () => {
  srv = await startServer({ env: { HTTP_IDLE_TIMEOUT_S: '1', TERN_TEST_PAUSE_AT: 'erase:after-commit@5000' } });
  const acct = await setupAccount(srv.url);
  const lines = fixtureLines({ visitors: 5, months: 1, eventsPerVisit: 2 });
  await importFixture(acct.api, acct.token, acct.orgId, acct.site.id, lines);
  const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
  const target = (await acct.api.get(`${base}/visitors?search=u3&limit=100`, acct.token)).body.data.visitors.find((v: any) => v.uid === 'u3');

  const t0 = performance.now();
  const erased = await acct.api.del(`${base}/visitors/${target.id}`, acct.token);
  expect(performance.now() - t0).toBeGreaterThan(4_900);
  expect(erased.status).toBe(200);
  expect(erased.body.data).toMatchObject({ id: target.id, events_deleted: lines.filter((l) => l.visitor_uid === 'u3').length });

  const port = Number(new URL(srv.url).port);
  const closedAfter = await new Promise<number>((resolve, reject) => {
    const start = performance.now();
    const sock = connect(port, '127.0.0.1', () => sock.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n'));
    let answered = false;
    sock.on('data', (d) => { answered ||= d.toString().startsWith('HTTP/1.1 200'); });
    sock.on('close', () => (answered ? resolve(performance.now() - start) : reject(new Error('closed before an answer'))));
    setTimeout(() => { sock.destroy(); reject(new Error('still open after 10 s')); }, 10_000);
  });
  expect(closedAfter).toBeLessThan(10_000);
}, 60_000);
