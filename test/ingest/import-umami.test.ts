// format=umami: the data-export fixture (test/fixtures/imports/make-umami.ts) gives the figures counted by hand
// from how it was written; malformed rows are named by the line they start on.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

const fx = withServer();

const FIXTURE = join(import.meta.dir, '../fixtures/imports/umami-website-events.csv');

type Acct = Awaited<ReturnType<typeof setupAccount>>;
async function importBody(acct: Acct, body: BodyInit, format = 'umami') {
  const r = await fetch(`${fx.srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import?format=${format}`, {
    method: 'POST', headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'text/csv' }, body,
  });
  return { status: r.status, body: JSON.parse(await r.text()) };
}
const RANGE = 'period=custom&from=2026-04-10&to=2026-04-11';
const breakdown = async (acct: Acct, report: string, metric: 'visits' | 'visitors') =>
  (await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/${report}${report.includes('?') ? '&' : '?'}${RANGE}`, acct.token))
    .body.data.results.map((r: any) => [r.name, r[metric]]).sort();

/**
 * 80 sessions. Visit 1 (Apr 10): /, /docs, /docs/install; sessions 0, 5 … 75 (16) from GitHub, 1, 6 … 76 (16)
 * from Google, 2, 12 … 72 (8) tagged utm_source=twitter, the other 40 direct; sessions 0, 4 … 76 (20) sign up.
 * Even sessions (40) return directly on Apr 11 to /pricing. s % 3: 0 iPhone (27), 1 Windows Chrome (27),
 * 2 Mac Firefox laptop (26); even sessions in France, odd in Japan.
 */
test('Umami export: visitors, visits, pageviews, sources and devices as counted; bad rows by line', async () => {
  const acct = await setupAccount(fx.srv.url);
  const r = await importBody(acct, readFileSync(FIXTURE));
  expect(r.status).toBe(200);
  expect(r.body.data).toEqual({
    imported: 300, rejected: 2, skipped: 0,
    errors: [
      { line: 50, error: "Invalid created_at '10/04/2026 09:15': expected YYYY-MM-DD HH:MM:SS (UTC)" },
      { line: 150, error: 'Missing url_path' },
    ],
  });
  const stats = (await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/stats?${RANGE}`, acct.token)).body.data.metrics;
  // 240 + 40 pageviews, 20 sign-ups; 80 + 40 visits.
  expect(stats).toMatchObject({ visitors: 80, visits: 120, pageviews: 280, events: 300 });
  expect(await breakdown(acct, 'sources', 'visits')).toEqual([['Direct / None', 80], ['GitHub', 16], ['Google', 16], ['Twitter', 8]]);
  // GitHub counts as social, as in GA4's source categories.
  expect(await breakdown(acct, 'channels', 'visits')).toEqual([['Direct', 80], ['Organic Search', 16], ['Organic Social', 24]]);
  expect(await breakdown(acct, 'devices', 'visitors')).toEqual([['desktop', 53], ['mobile', 27]]);
  expect(await breakdown(acct, 'devices?dimension=browser', 'visitors')).toEqual([['Chrome', 27], ['Firefox', 26], ['Safari', 27]]);
  expect(await breakdown(acct, 'devices?dimension=os', 'visitors')).toEqual([['Windows', 27], ['iOS', 27], ['macOS', 26]]);
  expect(await breakdown(acct, 'locations', 'visitors')).toEqual([['FR', 40], ['JP', 40]]);
  expect(await breakdown(acct, 'pages?dimension=entry_page', 'visits')).toEqual([['/', 80], ['/pricing', 40]]);
}, 60_000);

test('a CSV without Umami\'s header is a 400 naming the missing columns', async () => {
  const acct = await setupAccount(fx.srv.url);
  const r = await importBody(acct, 'a,b\n1,2\n');
  expect(r.status).toBe(400);
  expect(r.body.error).toMatch(/missing column\(s\) created_at, session_id, url_path, event_type/);
});
