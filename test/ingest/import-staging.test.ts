// An import's rows are read by DuckDB in chunks while its body is still parsed (one import at a time keeps a
// connection for that; the others read theirs when they load): imports of several chunks, three at once, store
// the same events and visits as the same history sent in small single-chunk requests, a query answers meanwhile,
// and no staging file is left behind.
import { expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { generateEvents } from '../../bench/generate.ts';
import { importLines } from '../helpers/import.ts';

const fx = withServer();

const RANGE = 'period=custom&from=2026-05-01&to=2026-06-01';
const REPORTS = [`stats?${RANGE}`, `pages?${RANGE}&limit=1000`, `pages?${RANGE}&dimension=entry_page&limit=1000`, `sources?${RANGE}&limit=1000`, `revenue?${RANGE}`];

test('multi-chunk imports running at once store what small requests store, exactly', async () => {
  // ~15k enriched lines are several 2 MiB chunks.
  const events = [...generateEvents({ events: 15_000, seed: 9, days: 30, end: new Date('2026-06-01T00:00:00Z') })];
  // The visits the events hold: each visitor's events in time order, cut at gaps of 30 minutes.
  let visits = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const prev = events[i - 1];
    if (!prev || prev.visitor_uid !== e.visitor_uid || Date.parse(e.timestamp) - Date.parse(prev.timestamp) >= 30 * 60_000) visits++;
  }
  const together = await Promise.all([0, 1, 2].map(() => setupAccount(fx.srv.url)));
  const pieces = await setupAccount(fx.srv.url);

  const running = together.map((acct) => importLines(fx.srv.url, acct, events, { newlineAtEnd: true }));
  // The pool still serves queries while the imports hold connections.
  const meanwhile = await pieces.api.get(`/api/v1/organizations/${pieces.orgId}/sites/${pieces.site.id}/analytics/stats?${RANGE}`, pieces.token);
  expect(meanwhile.status).toBe(200);
  for (const r of await Promise.all(running)) expect({ status: r.status, data: r.body.data }).toMatchObject({ status: 200, data: { imported: 15_000, rejected: 0 } });
  for (let i = 0; i < events.length; i += 1000) {
    const r = await importLines(fx.srv.url, pieces, events.slice(i, i + 1000));
    expect(r.body.data.imported).toBe(1000);
  }

  const report = async (acct: typeof pieces, path: string) => {
    const r = await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/${path}`, acct.token);
    expect(r.status).toBe(200);
    return r.body.data;
  };
  const stats = await report(pieces, `stats?${RANGE}`);
  expect(stats.metrics.visits).toBe(visits);
  expect(stats.metrics.pageviews).toBe(events.filter((e) => e.event_type === 'pageview').length);
  for (const path of REPORTS) {
    const want = await report(pieces, path);
    for (const acct of together) expect({ path, report: await report(acct, path) }).toEqual({ path, report: want });
  }
  expect(readdirSync(join(fx.srv.dataDir, 'import'))).toEqual([]);
}, 240_000);
