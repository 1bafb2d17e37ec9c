// Deleting a site while its events are being ingested, or while it is being patched: nothing of the site
// comes back (not after the loader runs, not after a kill -9 and the log's replay), nothing else is lost.
import { expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { queryStored } from '../helpers/inspect-db.ts';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { client } from '../helpers/api.ts';

// Loads wait 1.5 s: the deleted site's events sit in the ingest log when the delete runs.
const fx = withServer({ server: { env: { INGEST_LOAD_INTERVAL_MS: '1500' } }, accounts: { acct: {} } });

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const org = () => `/api/v1/organizations/${fx.acct.orgId}`;
/** A client for the server running now (a restart moves the port). */
const api = () => client(fx.srv.url);

async function event(publicId: string, path: string, uid: string): Promise<number> {
  const r = await fetch(`${fx.srv.url}/api/v1/event`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify({ site_id: publicId, url: `https://example.com${path}`, visitor_uid: uid }),
  });
  await r.arrayBuffer();
  return r.status;
}

const pageviews = async (siteId: string) =>
  (await api().get(`${org()}/sites/${siteId}/analytics/stats?period=day`, fx.acct.token)).body.data.metrics.pageviews as number;

test('a site deleted under ingestion stays deleted through loads, a kill -9 and the replay; the other site loses nothing', async () => {
  const doomed = (await api().post(`${org()}/sites`, { domain: 'doomed.example.com' }, fx.acct.token)).body.data;
  const kept = fx.acct.site;
  const accepted = { doomed: 0, kept: 0 };
  let pumping = true;
  const pump = async (w: number) => {
    for (let i = 0; pumping; i++) {
      if ((await event(doomed.public_id, `/d${i}`, `dv${w}`)) === 202) accepted.doomed++;
      const s = await event(kept.public_id, `/k${i}`, `kv${w}`);
      expect(s).toBe(202);
      accepted.kept++;
    }
  };
  const pumps = Array.from({ length: 6 }, (_, w) => pump(w));
  await Bun.sleep(400);
  expect((await api().del(`${org()}/sites/${doomed.id}`, fx.acct.token)).status).toBe(200);
  await Bun.sleep(400);
  pumping = false;
  await Promise.all(pumps);
  expect(accepted.doomed).toBeGreaterThan(0);

  // Accepted events of both sites are in the log, some loaded, some not: kill and replay.
  await fx.srv.kill();
  fx.srv = await startServer({ dataDir: fx.srv.dataDir, env: { INGEST_LOAD_INTERVAL_MS: '0' } });
  for (let i = 0; i < 100 && (await pageviews(kept.id)) < accepted.kept; i++) await Bun.sleep(100);
  expect(await pageviews(kept.id)).toBe(accepted.kept);
  expect((await api().get(`${org()}/sites/${doomed.id}`, fx.acct.token)).status).toBe(404);
  expect(await event(doomed.public_id, '/late', 'late')).toBe(404);
  expect(await fx.srv.stop()).toBe(0);

  for (const table of ['parquet_files', 'visits', 'visitors', 'event_counts']) {
    const rows = await queryStored<{ n: number }>(fx.srv.dataDir, `SELECT count(*)::INTEGER AS n FROM ${table} WHERE site_id = ?`, [doomed.id]);
    expect(rows[0]!.n, table).toBe(0);
  }
  expect(existsSync(join(fx.srv.dataDir, 'parquet', 'events', `site=${doomed.id}`))).toBe(false);
  fx.srv = await startServer({ dataDir: fx.srv.dataDir });
}, 90_000);

test('PATCH and DELETE of one site at once: the site is gone afterwards, both answer 200 or 404, never 5xx', async () => {
  for (let round = 0; round < 15; round++) {
    const site = (await api().post(`${org()}/sites`, { domain: `race${round}.example.com` }, fx.acct.token)).body.data;
    const [patch, del] = await Promise.all([
      api().patch(`${org()}/sites/${site.id}`, { name: `renamed ${round}` }, fx.acct.token),
      api().del(`${org()}/sites/${site.id}`, fx.acct.token),
    ]);
    expect([200, 404]).toContain(patch.status);
    expect(del.status).toBe(200);
    expect((await api().get(`${org()}/sites/${site.id}`, fx.acct.token)).status).toBe(404);
    const listed = (await api().get(`${org()}/sites`, fx.acct.token)).body.data.sites.map((s: any) => s.id);
    expect(listed).not.toContain(site.id);
    expect(await event(site.public_id, '/after', 'x')).toBe(404);
  }
}, 60_000);
