// format=access-log: the nginx combined-log fixture (test/fixtures/imports/make-access-log.ts), gzipped and plain,
// gives the pageviews counted by hand: HTML pages only, assets, redirects, errors, posts, monitors and bots skipped.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

const fx = withServer();

const FIXTURE = join(import.meta.dir, '../fixtures/imports/access.log');

type Acct = Awaited<ReturnType<typeof setupAccount>>;
async function importBody(acct: Acct, body: BodyInit) {
  const r = await fetch(`${fx.srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import?format=access-log`, {
    method: 'POST', headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'text/plain' }, body,
  });
  return { status: r.status, body: JSON.parse(await r.text()) };
}
const Q = 'period=day&date=2026-05-04';
const breakdown = async (acct: Acct, report: string, metric: string) =>
  (await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/${report}${report.includes('?') ? '&' : '?'}${Q}`, acct.token))
    .body.data.results.map((r: any) => [r.name, r[metric]]).sort();

/**
 * 40 visitors (one IP each; Chrome, Safari, Firefox by v % 3): GET / (from Google when v is even, else from Hacker
 * News when v % 3 == 0, else direct), four assets, GET /about; v % 4 == 0 (10) a 304 of /blog/post-1.html;
 * v % 5 == 0 (8) a POST and a 302 of /contact, and /pricing two hours later (a second visit); v % 8 == 0 (5) a
 * 404, v % 10 == 0 (4) a 301. Besides: 10 Googlebot hits, 5 HEAD requests of a monitor, 3 errors (500).
 */
async function check(acct: Acct, body: BodyInit) {
  const r = await importBody(acct, body);
  expect(r.status).toBe(200);
  // Skipped: 160 assets + 8 POST + 8 302 + 5 404 + 4 301 + 10 bot + 5 HEAD + 3 500 = 203.
  expect(r.body.data).toEqual({
    imported: 98, rejected: 2, skipped: 203,
    errors: [
      { line: 60, error: 'Not a combined-format log line: expected IP - user [time] "request" status bytes "referer" "user-agent"' },
      { line: 240, error: "Invalid time '04/May/2026:10:33:01': expected dd/Mon/yyyy:hh:mm:ss +zzzz" },
    ],
  });
  const stats = (await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/stats?${Q}`, acct.token)).body.data.metrics;
  // 40 + 40 + 10 + 8 pageviews; 40 + 8 visits.
  expect(stats).toMatchObject({ visitors: 40, visits: 48, pageviews: 98, events: 98 });
  expect(await breakdown(acct, 'sources', 'visits')).toEqual([['Direct / None', 21], ['Google', 20], ['Hacker News', 7]]);
  expect(await breakdown(acct, 'pages', 'pageviews')).toEqual([['/', 40], ['/about', 40], ['/blog/post-1.html', 10], ['/pricing', 8]]);
  expect(await breakdown(acct, 'devices?dimension=browser', 'visitors')).toEqual([['Chrome', 14], ['Firefox', 13], ['Safari', 13]]);
  // Local times (+0200) are stored in UTC: the first visits fall in 08:00Z (90 pageviews), the returns in 10:00Z (8).
  const chart = (await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/charts?${Q}&interval=hour`, acct.token)).body.data.points;
  expect(chart.filter((p: any) => p.pageviews > 0).map((p: any) => [p.date, p.pageviews])).toEqual([['2026-05-04 08:00:00', 90], ['2026-05-04 10:00:00', 8]]);
}

test('an access log, gzipped: HTML pageviews only, visitors by IP and user agent, bad lines by number', async () => {
  await check(await setupAccount(fx.srv.url), gzipSync(readFileSync(FIXTURE)));
}, 60_000);

test('the same log, plain', async () => {
  await check(await setupAccount(fx.srv.url), readFileSync(FIXTURE));
}, 60_000);
