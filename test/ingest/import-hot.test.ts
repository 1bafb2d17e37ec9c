// Large imports land in the hot events table until compaction writes them to Parquet: their reports equal those
// of the same history imported in small pieces (written to Parquet at once), before and after a restart and after
// the hot rows are written out; erasing a visitor removes their hot events too.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { startServer } from '../helpers/server.ts';
import { queryStored } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';
import { generateEvents } from '../../bench/generate.ts';

const fx = withServer();

const RANGE = 'period=custom&from=2026-05-20&to=2026-06-01';
const REPORTS = [
  `stats?${RANGE}`, `charts?${RANGE}`,
  ...['page', 'entry_page', 'exit_page'].map((d) => `pages?${RANGE}&dimension=${d}&limit=1000`),
  `sources?${RANGE}&dimension=source&limit=1000`, `devices?${RANGE}&dimension=browser&limit=1000`, `revenue?${RANGE}`,
  `pages?${RANGE}&limit=1000&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'channel', operator: 'is', value: 'Organic Search' }]))}`,
];

test('a large import is queryable from the hot table at once, survives a restart, is written to Parquet later, and erasure reaches it', async () => {
  const events = [...generateEvents({ events: 3000, seed: 5, days: 10, end: new Date('2026-06-01T00:00:00Z') })];
  const hot = await setupAccount(fx.srv.url);
  const files = await setupAccount(fx.srv.url);
  expect((await importLines(fx.srv.url, hot, events)).body.data).toMatchObject({ imported: 3000, rejected: 0 });
  for (let i = 0; i < 3000; i += 500) expect((await importLines(fx.srv.url, files, events.slice(i, i + 500))).body.data.imported).toBe(500);

  const report = async (acct: typeof hot, path: string) => {
    // The server's address changes with each restart.
    const r = await client(fx.srv.url).get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/${path}`, acct.token);
    expect(r.status).toBe(200);
    return r.body.data;
  };
  const same = async () => {
    for (const path of REPORTS) expect({ path, report: await report(hot, path) }).toEqual({ path, report: await report(files, path) });
  };
  await same();
  expect((await report(hot, `stats?${RANGE}`)).metrics.pageviews).toBeGreaterThan(1000);
  // Time on page comes from the hot rows for one site and from the files' stored sums for the other.
  expect((await report(hot, `pages?${RANGE}&limit=1000`)).results.some((r: any) => r.time_on_page > 0)).toBe(true);

  // Erasure: the visitor's hot events go with their files' events on the other site, counted alike.
  const uid = events[0]!.visitor_uid;
  const erase = async (acct: typeof hot) => {
    const r = await acct.api.del(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/visitors?uid=${encodeURIComponent(uid)}`, acct.token);
    expect(r.status).toBe(200);
    return r.body.data.events_deleted;
  };
  const erased = await erase(hot);
  expect(erased).toBe(events.filter((e) => e.visitor_uid === uid).length);
  expect(await erase(files)).toBe(erased);
  await same();

  // Durable where they are: still hot after a restart, and read from there.
  await fx.srv.stop();
  const hotRows = async (siteId: string) => (await queryStored<{ n: number }>(fx.srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM events WHERE site_id = ?', [siteId]))[0]!.n;
  expect(await hotRows(hot.site.id)).toBe(3000 - erased);
  expect(await hotRows(files.site.id)).toBe(0);
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  await same();

  // Once imports pause, compaction (here the one after a small import) writes them out, one file per month.
  const other = await setupAccount(fx.srv.url);
  expect((await importLines(fx.srv.url, other, events.slice(0, 1))).status).toBe(200);
  await fx.srv.stop();
  expect(await hotRows(hot.site.id)).toBe(0);
  const written = await queryStored<{ rows: number }>(fx.srv.dataDir, `SELECT sum(rows)::INTEGER AS rows FROM parquet_files WHERE site_id = ? AND tbl = 'events'`, [hot.site.id]);
  expect(written[0]!.rows).toBe(3000 - erased);
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
  await same();
}, 240_000);
