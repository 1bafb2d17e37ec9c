// Two Tern nodes (two server processes, separate DATA_DIRs) on one PostgreSQL: they share accounts, keys and
// sites; a revocation or logout on one is refused by the other on the very next request; the per-key rate
// limit counts both; a site deleted on one stops on the other and its stored events there go too.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { queryStored, sendEvent } from '../helpers/inspect-db.ts';
import { createDatabase, postgresUnavailable, startPostgres, type TestPostgres } from '../helpers/postgres.ts';

const unavailable = postgresUnavailable();
if (unavailable) console.log(unavailable);

/** Polls `probe` until it returns true (another node learns of a new site by NOTIFY, within milliseconds). */
async function eventually(probe: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await Bun.sleep(25);
  }
}

describe.skipIf(Boolean(unavailable))('two nodes on one PostgreSQL', () => {
  let pg: TestPostgres;
  let a: TestServer;
  let b: TestServer;
  let acct: Awaited<ReturnType<typeof setupAccount>>;
  const sitesPath = () => `/api/v1/organizations/${acct.orgId}/sites`;

  beforeAll(async () => {
    pg = await startPostgres();
    const url = await createDatabase(pg, 'nodes');
    // Started together: the migrations' advisory lock lets one node migrate while the other waits.
    [a, b] = await Promise.all([startServer({ env: { DATABASE_URL: url } }), startServer({ env: { DATABASE_URL: url } })]);
    acct = await setupAccount(a.url, { scopes: ['sites:read'] });
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.cleanup(), b?.cleanup()]);
    await pg?.stop();
  });

  test('an account, its session, key and site made on one node work on the other', async () => {
    const onB = client(b.url);
    const me = await onB.get('/api/v1/auth/me', acct.token);
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(acct.email);
    const listed = await onB.get(sitesPath(), acct.key);
    expect(listed.status).toBe(200);
    expect(listed.body.data.sites.map((s: { id: string }) => s.id)).toEqual([acct.site.id]);
    // The tracker may reach any node: B takes the site's events.
    await eventually(async () => (await sendEvent(b.url, { site_id: acct.site.public_id, url: 'https://example.com/b' })) === 202);
    // A site made on A a moment ago is found on B at once, before its notification need have arrived.
    const made = await client(a.url).post(sitesPath(), { domain: 'second.example' }, acct.token);
    expect(made.status).toBe(201);
    const got = await onB.get(`${sitesPath()}/${made.body.data.id}`, acct.key);
    expect(got.status).toBe(200);
    expect(got.body.data.domain).toBe('second.example');
    expect((await client(a.url).del(`${sitesPath()}/${made.body.data.id}`, acct.token)).status).toBe(200);
    await eventually(async () => (await onB.get(`${sitesPath()}/${made.body.data.id}`, acct.key)).status === 404);
  });

  test('a key revoked on one node is refused by the other on the next request', async () => {
    const onA = client(a.url);
    const onB = client(b.url);
    const created = await onA.post(`/api/v1/organizations/${acct.orgId}/api-keys`, { name: 'to revoke', scopes: ['sites:read'] }, acct.token);
    expect(created.status).toBe(201);
    const key: string = created.body.data.key;
    // Used on B first: a per-process cache would now hold it.
    for (let i = 0; i < 3; i++) expect((await onB.get(sitesPath(), key)).status).toBe(200);
    expect((await onA.del(`/api/v1/organizations/${acct.orgId}/api-keys/${created.body.data.id}`, acct.token)).status).toBe(200);
    const refused = await onB.get(sitesPath(), key);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'Invalid or expired API key' });
    expect((await onA.get(sitesPath(), key)).status).toBe(401);
  });

  test('logout on one node ends the session on the other at once', async () => {
    const onA = client(a.url);
    const onB = client(b.url);
    const login = await onB.post('/api/v1/auth/login', { email: acct.email, password: 'correct horse' });
    expect(login.status).toBe(200);
    const token: string = login.body.data.token;
    for (let i = 0; i < 3; i++) expect((await onB.get('/api/v1/auth/me', token)).status).toBe(200);
    expect((await onA.post('/api/v1/auth/logout', undefined, token)).status).toBe(200);
    const refused = await onB.get('/api/v1/auth/me', token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'Invalid or expired session' });
    // The account's other session is untouched.
    expect((await onB.get('/api/v1/auth/me', acct.token)).status).toBe(200);
  });

  test('the per-key rate limit (600 a minute) holds across both nodes', async () => {
    const created = await client(a.url).post(`/api/v1/organizations/${acct.orgId}/api-keys`, { name: 'limited', scopes: ['sites:read'] }, acct.token);
    const key: string = created.body.data.key;
    const nodes = [client(a.url), client(b.url)];
    const statuses: number[] = [];
    const remaining: number[] = [];
    // 620 requests, half on each node, 20 at a time: each node alone stays far under 600.
    for (let batch = 0; batch < 31; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => nodes[i % 2]!.get(sitesPath(), key)));
      for (const r of answers) {
        statuses.push(r.status);
        if (r.status === 200) remaining.push(Number(r.headers.get('x-ratelimit-remaining')));
      }
    }
    expect(statuses.filter((s) => s === 200).length).toBe(600);
    expect(statuses.filter((s) => s === 429).length).toBe(20);
    // Each counted request saw its own place in the one shared window: 599 … 0, each once.
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    for (const node of nodes) {
      const r = await node.get(sitesPath(), key);
      expect(r.status).toBe(429);
      expect(r.headers.get('x-ratelimit-limit')).toBe('600');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  }, 120_000);

  test('a site deleted on one node stops on the other, and its events stored there are dropped', async () => {
    const onA = client(a.url);
    const created = await onA.post(sitesPath(), { domain: 'gone.example' }, acct.token);
    expect(created.status).toBe(201);
    const site = created.body.data as { id: string; public_id: string };
    await eventually(async () => (await sendEvent(b.url, { site_id: site.public_id, url: 'https://gone.example/x', visitor_uid: 'v1' })) === 202);
    // B loads its log at once (INGEST_LOAD_INTERVAL_MS=0, a segment sealed after a second): wait until it counts the pageview.
    const onB = client(b.url);
    const stats = `${sitesPath()}/${site.id}/analytics/stats?period=day`;
    await eventually(async () => (await onB.get(stats, acct.token)).body?.data?.metrics?.pageviews === 1, 15_000);

    expect((await onA.del(`${sitesPath()}/${site.id}`, acct.token)).status).toBe(200);
    await eventually(async () => (await onB.get(`${sitesPath()}/${site.id}`, acct.key)).status === 404);
    expect(await sendEvent(b.url, { site_id: site.public_id, url: 'https://gone.example/y' })).toBe(404);
    await eventually(async () => b.logs().includes(`"msg":"deleted site dropped from this node","site":"${site.id}"`));

    // What B stored of the site is gone from its DuckDB file; the other site's events are still there.
    expect(await b.stop()).toBe(0);
    const files = await queryStored<{ site_id: string; n: number }>(b.dataDir, 'SELECT site_id, count(*)::INTEGER AS n FROM parquet_files GROUP BY site_id ORDER BY site_id');
    expect(files.map((f) => f.site_id)).toEqual([acct.site.id]);
    expect(await queryStored(b.dataDir, 'SELECT id::VARCHAR AS id FROM sites ORDER BY id')).toEqual([{ id: acct.site.id }]);
  }, 60_000);
});
