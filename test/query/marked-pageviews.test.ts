// Pageviews of the pages breakdown's marked pass (plan/marked-sources.ts, metrics.ts): DuckDB tests the event type
// once per dictionary entry of a Parquet page there, so files whose event types differ (only custom events, a mix,
// only pageviews) must each count exactly their pageviews, a custom event named "pageview" none, and the answer
// equal the same request with a filter every event passes (which counts on the events, not the marks).
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { importAll } from '../helpers/import.ts';
import { queryStored } from '../helpers/inspect-db.ts';

const fx = withServer({ accounts: { a: { timezone: 'UTC' } } });

type Ev = [path: string, type: 'pageview' | 'custom' | 'purchase'];
/** One import each (one file: at most three per month, so none are merged). */
const FILES: Ev[][] = [
  [['/a', 'custom'], ['/b', 'custom'], ['/a', 'custom']],
  [['/a', 'pageview'], ['/b', 'custom'], ['/a', 'purchase'], ['/b', 'pageview'], ['/a', 'pageview']],
  [['/b', 'pageview'], ['/c', 'pageview'], ['/b', 'pageview']],
];

test('pages count exactly the pageviews of each file, whatever event types its pages hold', async () => {
  const { srv, a } = fx;
  for (const [f, events] of FILES.entries()) {
    await importAll(srv.url, a, events.map(([path, type], i) => ({
      timestamp: new Date(Date.UTC(2026, 2, 3 + f, 10, i)).toISOString(), url: `https://example.com${path}`, visitor_uid: `v${f}-${i % 2}`,
      event_type: type,
      ...(type === 'custom' ? { event_name: 'pageview' } : type === 'purchase' ? { event_name: 'Purchase', revenue: 5, currency: 'EUR', order_id: `O${f}${i}` } : {}),
    })));
  }
  const expected = new Map<string, number>();
  for (const [path, type] of FILES.flat()) expected.set(path, (expected.get(path) ?? 0) + (type === 'pageview' ? 1 : 0));

  const base = `/api/v1/organizations/${a.orgId}/sites/${a.site.id}/analytics/pages?period=custom&from=2026-03-01&to=2026-03-31`;
  const everyEvent = encodeURIComponent(JSON.stringify([{ dimension: 'hostname', operator: 'is', value: 'example.com' }]));
  const [marked, events] = await Promise.all([a.api.get(base, a.token), a.api.get(`${base}&filters=${everyEvent}`, a.token)]);
  expect(marked.status).toBe(200);
  const pageviews = (body: any) => new Map(body.data.results.map((r: any) => [r.name, r.pageviews]));
  expect(pageviews(marked.body)).toEqual(expected);
  expect(marked.body.data.results).toEqual(events.body.data.results);

  // The layout the test is about: the events in three files of one month.
  await srv.stop();
  const files = await queryStored(srv.dataDir, `SELECT count(*) AS n FROM parquet_files WHERE tbl = 'events' AND site_id = ?`, [a.site.id]);
  expect(Number(files[0]!.n)).toBe(3);
});
