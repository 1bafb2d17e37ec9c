// A site whose first-occurrence marks fail to rebuild (here: one of its event files is gone from disk) is
// not tried again at every compaction: it waits a minute, then longer, while its queries count exactly.
import { afterAll, expect, test } from 'bun:test';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { queryStored } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';

let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); });

const line = (ts: string, path: string) => ({
  url: `https://example.com${path}`, timestamp: ts, visitor_uid: 'u1', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
});
const failures = () => srv!.logs().split('\n').filter((l) => l.includes('first-occurrence marks could not be recomputed'));

test('a failed marks rebuild is logged once and retried only after a back-off; the import still succeeds', async () => {
  srv = await startServer();
  const a = await setupAccount(srv.url);
  expect((await importLines(srv.url, a, [line('2026-04-02T10:00:00Z', '/a')])).body.data.imported).toBe(1);
  // The site's event file disappears (an operator's mistake, a lost disk block): a rebuild must read it.
  const dir = join(srv.dataDir, 'parquet', 'events', `site=${a.site.id}`, 'month=2026-04');
  for (const f of readdirSync(dir)) rmSync(join(dir, f));

  // An older event of the same visitor makes the site's marks stale; the compaction after the import fails to rebuild them.
  const first = await importLines(srv.url, a, [line('2026-04-01T10:00:00Z', '/b')]);
  expect(first.status).toBe(200);
  expect(first.body.data.imported).toBe(1);
  expect(failures()).toHaveLength(1);
  expect(JSON.parse(failures()[0]!)).toMatchObject({ level: 'error', site: a.site.id, failures: 1, retryInMs: 60_000 });

  // The next compaction, within the minute, leaves the site alone.
  expect((await importLines(srv.url, a, [line('2026-03-30T10:00:00Z', '/c')])).status).toBe(200);
  expect(failures()).toHaveLength(1);
  expect(srv.logs()).not.toContain('compaction after import failed');
  expect(await srv.stop()).toBe(0);
  expect(await queryStored(srv.dataDir, 'SELECT site_id FROM marks_stale')).toEqual([{ site_id: a.site.id }]);
}, 60_000);
