// Deleting a site deletes its analytics data too (contract §3), checked in the DuckDB file itself.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { queryStored } from '../helpers/inspect-db.ts';
import { setupAccount } from '../helpers/api.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';


const fx = withServer({ accounts: { acct: {} } });

async function sendPageview(publicId: string, path: string) {
  const r = await fetch(`${fx.srv.url}/api/v1/event`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify({ site_id: publicId, url: `https://example.com${path}`, visitor_uid: 'v-1' }),
  });
  expect(r.status).toBe(202);
}

/** Polls the stats endpoint until the loader has made the events visible. */
async function pageviews(siteId: string): Promise<number> {
  const r = await fx.acct.api.get(`/api/v1/organizations/${fx.acct.orgId}/sites/${siteId}/analytics/stats?period=day`, fx.acct.token);
  return r.body.data.metrics.pageviews;
}

test('after DELETE, no events, visits or visitors of the site remain; other sites keep theirs', async () => {
  const doomed = (await fx.acct.api.post(`/api/v1/organizations/${fx.acct.orgId}/sites`, { domain: 'doomed.example.com' }, fx.acct.token)).body.data;
  await sendPageview(doomed.public_id, '/a');
  await sendPageview(doomed.public_id, '/b');
  await sendPageview(fx.acct.site.public_id, '/kept');
  for (let i = 0; i < 100 && ((await pageviews(doomed.id)) < 2 || (await pageviews(fx.acct.site.id)) < 1); i++) await Bun.sleep(100);
  expect(await pageviews(doomed.id)).toBe(2);

  expect((await fx.acct.api.del(`/api/v1/organizations/${fx.acct.orgId}/sites/${doomed.id}`, fx.acct.token)).status).toBe(200);
  // A late event for the deleted site is refused, not stored.
  const late = await fetch(`${fx.srv.url}/api/v1/event`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify({ site_id: doomed.public_id, url: 'https://example.com/late' }),
  });
  expect(late.status).toBe(404);
  expect(await fx.srv.stop()).toBe(0);

  // Events load straight into Parquet files, listed in parquet_files; visits and visitors stay hot a while.
  for (const table of ['parquet_files', 'visits', 'visitors', 'event_counts']) {
    const count = async (siteId: string) =>
      (await queryStored<{ n: number }>(fx.srv.dataDir, `SELECT count(*)::INTEGER AS n FROM ${table} WHERE site_id = ?`, [siteId]))[0]!.n;
    expect(await count(doomed.id), table).toBe(0);
    expect(await count(fx.acct.site.id), table).toBeGreaterThan(0);
  }
  expect(existsSync(join(fx.srv.dataDir, 'parquet', 'events', `site=${doomed.id}`))).toBe(false);
  expect(existsSync(join(fx.srv.dataDir, 'parquet', 'events', `site=${fx.acct.site.id}`))).toBe(true);
  expect(await queryStored(fx.srv.dataDir, 'SELECT count(*)::INTEGER AS n FROM sites WHERE id = ?::UUID', [doomed.id])).toEqual([{ n: 0 }]);
}, 30_000);
