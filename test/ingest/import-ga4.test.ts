// format=ga4: the BigQuery export fixture (test/fixtures/imports/make-ga4.ts), as NDJSON and as Parquet, gives
// the figures counted by hand from how it was written.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { DuckDBInstance } from '@duckdb/node-api';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { gzipSync } from 'node:zlib';

const fx = withServer();

const FIXTURE = join(import.meta.dir, '../fixtures/imports/ga4-events.ndjson');

type Acct = Awaited<ReturnType<typeof setupAccount>>;
async function importBody(acct: Acct, format: string, body: BodyInit) {
  const r = await fetch(`${fx.srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import?format=${format}`, {
    method: 'POST', headers: { authorization: `Bearer ${acct.token}` }, body,
  });
  return { status: r.status, body: JSON.parse(await r.text()) };
}

const RANGE = 'period=custom&from=2026-04-01&to=2026-04-02';
const rows = async (acct: Acct, report: string) =>
  (await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/${report}${report.includes('?') ? '&' : '?'}${RANGE}`, acct.token))
    .body.data.results.map((r: any) => [r.name, r.visits]).sort();

/**
 * 60 users. Visit 1 (Apr 1): first_visit, session_start, page_view /, page_view /pricing, user_engagement, and for
 * users 0, 5 … 55 (12) a sign_up. Users 0, 3 … 57 (20) return on Apr 2 from Google: session_start, page_view
 * /blog/launch, and users 0, 6 … 54 (10) a purchase of 49.50 EUR. Users 0, 4 … 56 (15) were first acquired by
 * the newsletter (traffic_source, their first session). Odd users are iPhones in the US, even ones Windows in Germany.
 */
async function checkFigures(acct: Acct) {
  const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics`;
  const stats = (await acct.api.get(`${base}/stats?${RANGE}`, acct.token)).body.data.metrics;
  // 120 + 20 pageviews; events add 12 sign-ups and 10 purchases; visits 60 + 20.
  expect(stats).toMatchObject({ visitors: 60, visits: 80, pageviews: 140, events: 162 });
  expect(await rows(acct, 'sources')).toEqual([['Direct / None', 45], ['Google', 20], ['newsletter', 15]]);
  expect(await rows(acct, 'channels')).toEqual([['Direct', 45], ['Email', 15], ['Organic Search', 20]]);
  expect(await rows(acct, 'locations')).toEqual([['DE', 40], ['US', 40]]);
  expect(await rows(acct, 'locations?dimension=city')).toEqual([['Munich', 40], ['San Francisco', 40]]);
  expect(await rows(acct, 'devices')).toEqual([['desktop', 40], ['mobile', 40]]);
  expect(await rows(acct, 'devices?dimension=browser')).toEqual([['Chrome', 40], ['Safari', 40]]);
  expect(await rows(acct, 'devices?dimension=os')).toEqual([['Windows', 40], ['iOS', 40]]);
  expect(await rows(acct, 'pages?dimension=entry_page')).toEqual([['/', 60], ['/blog/launch', 20]]);
  const revenue = (await acct.api.get(`${base}/revenue?${RANGE}`, acct.token)).body.data;
  // The site's currency is USD: the EUR orders are reported apart.
  expect(revenue.by_currency).toEqual([expect.objectContaining({ currency: 'EUR', revenue: 495, orders: 10 })]);
}

test('GA4 NDJSON export: events, visits, sources, devices, places and revenue as counted; bad rows by line', async () => {
  const acct = await setupAccount(fx.srv.url);
  const r = await importBody(acct, 'ga4', readFileSync(FIXTURE));
  expect(r.status).toBe(200);
  // 364 lines: 162 events, 200 GA4 bookkeeping rows (60 first_visit, 80 session_start, 60 user_engagement), 2 bad.
  expect(r.body.data).toEqual({
    imported: 162, rejected: 2, skipped: 200,
    errors: [{ line: 100, error: 'Malformed line: expected valid JSON' }, { line: 200, error: "Missing event_params 'page_location': the page URL" }],
  });
  await checkFigures(acct);
}, 60_000);

test('GA4 Parquet export (and gzip NDJSON) give the same figures', async () => {
  const dir = join(tmpdir(), `ga4-${Date.now()}`);
  const file = `${dir}.parquet`;
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  // As the export's schema types them: INT64 event_timestamp.
  await c.run(`COPY (SELECT * REPLACE (event_timestamp::BIGINT AS event_timestamp) FROM read_json('${FIXTURE}', format = 'newline_delimited', ignore_errors = true))
    TO '${file}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
  const acct = await setupAccount(fx.srv.url);
  const r = await importBody(acct, 'ga4', readFileSync(file));
  expect(r.status).toBe(200);
  // ignore_errors read the broken JSON line as a row of nulls: row numbers stay line numbers.
  expect(r.body.data).toEqual({
    imported: 162, rejected: 2, skipped: 200,
    errors: [{ line: 100, error: "Missing required field 'event_name'" }, { line: 200, error: "Missing event_params 'page_location': the page URL" }],
  });
  await checkFigures(acct);

  const gz = await setupAccount(fx.srv.url);
  expect((await importBody(gz, 'ga4', gzipSync(readFileSync(FIXTURE)))).body.data).toMatchObject({ imported: 162, rejected: 2 });
  await checkFigures(gz);

  const bad = await importBody(acct, 'ga4', new Uint8Array([0x50, 0x41, 0x52, 0x31, 1, 2, 3]));
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatch(/Parquet/);
}, 60_000);
