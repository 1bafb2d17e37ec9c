// kill -9 at each step of an erasure's rewrite: after the restart the store holds either every row of the
// visitor (old files registered) or none (new files registered), never both or neither, and no file on disk
// that the registry does not list.
import { afterAll, expect, test } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { fixtureLines, importFixture, waitForLog } from '../helpers/site-data.ts';
import { queryStored, storedRelation } from '../helpers/inspect-db.ts';
import { uidVisitorId } from '../../src/ingest/hash.ts';

const servers: TestServer[] = [];
afterAll(async () => { for (const s of servers) await s.cleanup(); });

const lines = fixtureLines({ visitors: 20, months: 3, eventsPerVisit: 3 });
const mine = lines.filter((l) => l.visitor_uid === 'u3').length;

function filesOnDisk(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else out.push(p); } };
  walk(join(dir, 'parquet'));
  return out.map((p) => relative(dir, p)).sort();
}

for (const [step, erased] of [['erase:files-written', false], ['erase:after-write', false], ['erase:after-commit', true]] as const) {
  test(`killed at ${step}: ${erased ? 'the erasure holds' : 'nothing is erased'}, nothing lost or doubled`, async () => {
    let srv = await startServer({ env: { TERN_TEST_PAUSE_AT: step } });
    servers.push(srv);
    const acct = await setupAccount(srv.url);
    await importFixture(acct.api, acct.token, acct.orgId, acct.site.id, lines);
    const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
    const target = (await acct.api.get(`${base}/visitors?search=u3&limit=100`, acct.token)).body.data.visitors.find((v: any) => v.uid === 'u3');
    void acct.api.del(`${base}/visitors/${target.id}`, acct.token).catch(() => {});
    await waitForLog(srv.logs, `"step":"${step}"`);
    await srv.kill();

    // The restart sweeps orphans; then the stopped store is read directly.
    srv = await startServer({ dataDir: srv.dataDir });
    servers.push(srv);
    const stats = (await client(srv.url).get(`${base}/analytics/stats?period=12mo`, acct.token)).body.data.metrics;
    await srv.stop();
    const events = await storedRelation(srv.dataDir, 'events');
    const vid = uidVisitorId(acct.site.id, 'u3');
    const [row] = await queryStored(srv.dataDir, `SELECT count(*) AS total, count(*) FILTER (WHERE visitor_id = ${vid}) AS mine,
      count(DISTINCT (visitor_id, ts, visit_id)) AS distinct_rows FROM ${events}`);
    expect(row).toEqual(erased
      ? { total: lines.length - mine, mine: 0, distinct_rows: lines.length - mine }
      : { total: lines.length, mine, distinct_rows: lines.length });
    expect(stats.events).toBe(row!.total);
    const registered = (await queryStored<{ path: string }>(srv.dataDir, 'SELECT path FROM parquet_files ORDER BY path')).map((r) => r.path).sort();
    expect(filesOnDisk(srv.dataDir)).toEqual(registered);
    expect(await queryStored(srv.dataDir, `SELECT count(*) AS n FROM visitors WHERE visitor_id = ${vid}`)).toEqual([{ n: erased ? 0 : 1 }]);
    expect(await queryStored(srv.dataDir, 'SELECT count(*) AS n FROM visitor_erasures')).toEqual([{ n: erased ? 1 : 0 }]);
  }, 60_000);
}
