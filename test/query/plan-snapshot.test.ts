// KNOWN BUG, not fixed yet (test.todo: run it with `npx bun test --todo test/query/plan-snapshot.test.ts`).
// A query plans its Parquet file list from the in-memory manifest (storage/sources.ts tableSource), then runs
// on DuckDB's snapshot of when its statement starts. A compaction that moves closed visits from the hot table to
// a new file can commit in between (typically while the query waits for one of the pool's four connections):
// the statement no longer sees the hot rows and was not told of the file, so those visits count nowhere
// (seen: "visits 320 events 340" for 340 one-event visits). The mirror case: a load committing in between
// shows its hot visits without the events of its new file. The fix needs the file list and the snapshot to
// agree (e.g. a query re-planned when the manifest published during it, or readers gating publication).
import { expect, test } from 'bun:test';
import { startServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';

test.todo('every answer counts each visit with its events while imports load and compaction moves visits to Parquet', async () => {
  const srv = await startServer();
  try {
    const acct = await setupAccount(srv.url, { scopes: ['analytics:read'] });
    const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
    const now = Date.now();
    let stop = false;
    const bad: string[] = [];
    // Eight readers keep more statements in flight than the pool has connections (rate limit: two credentials).
    const reader = async (cred: string) => {
      while (!stop) {
        await Bun.sleep(700);
        const r = await acct.api.get(`${base}/analytics/stats?period=custom&from=2020-01-01&to=2030-01-01`, cred);
        expect(r.status).toBe(200);
        const m = r.body.data.metrics;
        // One event per visit: the two always agree in a consistent answer.
        if (m.visits !== m.events) bad.push(`visits ${m.visits} events ${m.events}`);
      }
    };
    const readers = Promise.all(Array.from({ length: 8 }, (_, i) => reader(i % 2 ? acct.key : acct.token)));
    for (let b = 0; b < 40; b++) {
      // Twenty closed one-event visits: the import loads them hot, then its compaction moves them to a file.
      await importAll(srv.url, acct, Array.from({ length: 20 }, (_, i) => ({
        timestamp: new Date(now - 86_400_000 - (b * 20 + i) * 3_600_000).toISOString(), url: 'https://example.com/x', event_type: 'pageview',
        visitor_uid: `v${b}-${i}`, ip: '198.51.100.3', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
      })));
    }
    stop = true;
    await readers;
    expect(bad).toEqual([]);
  } finally {
    await srv.cleanup();
  }
}, 300_000);
