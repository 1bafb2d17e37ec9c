// Time on page from the engagement rollup (plan/engagement-sources.ts): a range in a zone whose first and last UTC
// days are partial, read over files inside it, files at its edges and files beside it on those partial days. The
// rollup's whole days take every file's stored sums without testing the file list, the partial days only the
// inside files' (the edge files' are read from the files); the answer must equal the reports in the range, and the
// same request with a filter every event passes (which reads the events, not the rollup).
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { importAll } from '../helpers/import.ts';
import { queryStored } from '../helpers/inspect-db.ts';

const fx = withServer({ accounts: { a: { timezone: 'America/New_York' } } });

// 2026-01-31 … 2026-02-01 in New York (UTC−5): [Jan 31 05:00Z, Feb 2 05:00Z). Jan 31 and Feb 2 are partial UTC days.
const FROM = Date.parse('2026-01-31T05:00:00Z');
const TO = Date.parse('2026-02-02T05:00:00Z');

/** One import (one file: at most three per month, so none are merged) of reports on /a, each the second pageview of its own visit. */
const FILES: Record<string, [string, number][]> = {
  beforeOnStartDay: [['2026-01-31T02:00:00Z', 5000]],
  inside: [['2026-01-31T10:00:00Z', 100], ['2026-01-31T20:00:00Z', 300]],
  startEdge: [['2026-01-30T12:00:00Z', 7000], ['2026-01-31T12:00:00Z', 200]],
  insideWholeDay: [['2026-02-01T10:00:00Z', 400], ['2026-02-01T12:00:00Z', 500]],
  endEdge: [['2026-02-01T15:00:00Z', 600], ['2026-02-02T03:00:00Z', 700], ['2026-02-02T07:00:00Z', 9000]],
  afterOnEndDay: [['2026-02-02T06:00:00Z', 8000]],
};

test('time on page over partial UTC days counts exactly the reports in range, whichever file holds them', async () => {
  const { srv, a } = fx;
  let n = 0;
  for (const [name, reports] of Object.entries(FILES)) {
    await importAll(srv.url, a, reports.flatMap(([at, seconds]) => {
      const uid = `${name}-${++n}`;
      const t = Date.parse(at);
      return [
        { timestamp: new Date(t - 60_000).toISOString(), url: 'https://example.com/a', visitor_uid: uid },
        { timestamp: at, url: 'https://example.com/b', visitor_uid: uid, time_on_page: seconds },
      ];
    }));
  }
  const inRange = Object.values(FILES).flat().filter(([at]) => Date.parse(at) >= FROM && Date.parse(at) < TO).map(([, s]) => s);
  const expected = Math.round(inRange.reduce((x, y) => x + y, 0) / inRange.length);
  const base = `/api/v1/organizations/${a.orgId}/sites/${a.site.id}/analytics/pages?period=custom&from=2026-01-31&to=2026-02-01`;
  const everyEvent = encodeURIComponent(JSON.stringify([{ dimension: 'hostname', operator: 'is', value: 'example.com' }]));
  const [rollup, events] = await Promise.all([a.api.get(base, a.token), a.api.get(`${base}&filters=${everyEvent}`, a.token)]);
  expect(rollup.status).toBe(200);
  const timeOn = (body: any, page: string) => body.data.results.find((r: any) => r.name === page)?.time_on_page;
  expect(timeOn(rollup.body, '/a')).toBe(expected);
  expect(rollup.body.data.results).toEqual(events.body.data.results);

  // The layout the test is about: one file per import, two of them beside the range on its partial days.
  await srv.stop();
  const files = await queryStored(srv.dataDir, `SELECT epoch_ms(min_ts) AS lo, epoch_ms(max_ts) AS hi FROM parquet_files WHERE tbl = 'events' AND site_id = ? ORDER BY lo`, [a.site.id]);
  const spans = Object.values(FILES).map((r) => ({ lo: Date.parse(r[0]![0]) - 60_000, hi: Date.parse(r.at(-1)![0]) })).sort((x, y) => x.lo - y.lo);
  expect(files.map((f) => ({ lo: Number(f.lo), hi: Number(f.hi) }))).toEqual(spans);
  expect(spans.filter((f) => f.hi < FROM || f.lo >= TO).length).toBe(2);
});
