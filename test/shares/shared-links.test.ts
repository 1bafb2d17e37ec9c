// Shared links: create (token once), list masked, read its own site's dashboard only, password and unlock, revoke at once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';

let srv: TestServer;
let a: Awaited<ReturnType<typeof setupAccount>>;
let b: Awaited<ReturnType<typeof setupAccount>>;
let other: { id: string }; // a second site of a's organization
beforeAll(async () => {
  srv = await startServer({ env: { AUTH_RATE_LIMIT: '5', TRUST_PROXY: 'true' } });
  a = await setupAccount(srv.url, { scopes: ['analytics:read'] });
  b = await setupAccount(srv.url);
  other = (await a.api.post(`/api/v1/organizations/${a.orgId}/sites`, { domain: 'other.example' }, a.token)).body.data;
  // One pageview, so the shared dashboard has something to show.
  const ev = await a.api.call('POST', '/api/v1/event', {
    body: { site_id: a.site.public_id, url: 'https://example.com/pricing', visitor_uid: 'v1' },
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' },
  });
  expect(ev.status).toBe(202);
  for (let i = 0; i < 100; i++) {
    const s = await a.api.get(`${siteBase()}/analytics/stats`, a.token);
    if (s.body.data.metrics.pageviews === 1) return;
    await Bun.sleep(100);
  }
  throw new Error('the pageview was not loaded');
}, 30_000);
afterAll(async () => { await srv.cleanup(); });

const siteBase = (orgId = a.orgId, siteId = a.site.id) => `/api/v1/organizations/${orgId}/sites/${siteId}`;
const linksPath = (siteId = a.site.id) => `${siteBase(a.orgId, siteId)}/shared-links`;
let ipSeq = 0;
/** Each call from its own client IP, so the per-IP auth limit does not mix into per-link counts. */
const freshIp = () => ({ 'x-forwarded-for': `198.51.100.${++ipSeq}` });

async function createLink(body: Record<string, unknown> = {}) {
  const r = await a.api.post(linksPath(), body, a.token);
  expect(r.status).toBe(201);
  return r.body.data as { id: string; name: string | null; token: string; url: string; has_password: boolean; created_at: string };
}

describe('lifecycle', () => {
  test('create shows the token once; the list masks it; GET /share describes the site', async () => {
    const link = await createLink({ name: 'Investors' });
    expect(link.token).toMatch(/^shl_[0-9a-f]{32}$/);
    expect(link).toMatchObject({ name: 'Investors', url: `/share/${link.token}`, has_password: false });
    expect(link.created_at).toMatch(/Z$/);
    const list = await a.api.get(linksPath(), a.token);
    const listed = list.body.data.shared_links.find((l: any) => l.id === link.id);
    expect(listed).toEqual({ id: link.id, name: 'Investors', has_password: false, created_at: link.created_at, token_preview: `****${link.token.slice(-4)}` });
    expect(list.text).not.toContain(link.token);
    // Another site's list does not hold it.
    expect((await a.api.get(linksPath(other.id), a.token)).body.data.shared_links).toEqual([]);

    const info = await a.api.get(`/api/v1/share/${link.token}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toEqual({
      site: { id: a.site.id, name: 'example.com', domain: 'example.com', timezone: 'UTC', currency: 'USD' },
      organization_id: a.orgId,
      password_required: false,
    });
    expect(info.headers.get('x-ratelimit-limit')).toBe('600');
  });

  test('the token reads its own site\'s dashboard, exactly as the owner sees it', async () => {
    const link = await createLink();
    for (const path of ['/analytics/stats', '/analytics/pages', '/analytics/charts?period=7d', '/goals', '/goals/stats', '/funnels', '/annotations']) {
      const shared = await a.api.get(siteBase() + path, link.token);
      expect(shared.status).toBe(200);
      expect(shared.headers.get('x-ratelimit-limit')).toBe('600');
      expect(shared.body).toEqual((await a.api.get(siteBase() + path, a.token)).body);
    }
    const pages = await a.api.get(`${siteBase()}/analytics/pages`, link.token);
    expect(pages.body.data.results[0]).toMatchObject({ name: '/pricing', pageviews: 1 });
    // One goal's and one funnel's results, but not the goal's completions (they name visitors).
    const goal = (await a.api.post(`${siteBase()}/goals`, { name: 'Pricing', type: 'pageview', path: '/pricing' }, a.token)).body.data;
    const goalStats = await a.api.get(`${siteBase()}/goals/${goal.id}/stats`, link.token);
    expect(goalStats.status).toBe(200);
    expect(goalStats.body.data.metrics.completions).toBe(1);
    expect(await a.api.get(`${siteBase()}/goals/${goal.id}/completions`, link.token)).toMatchObject({ status: 403, body: { error: 'Shared links are read-only' } });
    const funnel = await a.api.post(`${siteBase()}/funnels`, { name: 'F', steps: [{ type: 'pageview', value: '/' }, { type: 'pageview', value: '/pricing' }] }, a.token);
    expect(funnel.status).toBe(201);
    expect((await a.api.get(`${siteBase()}/funnels/${funnel.body.data.id}/analysis`, link.token)).status).toBe(200);
    expect(await a.api.del(`${siteBase()}/funnels/${funnel.body.data.id}`, link.token)).toMatchObject({ status: 403, body: { error: 'Shared links are read-only' } });
    // Its site by public id too.
    expect((await a.api.get(`${siteBase(a.orgId, a.site.public_id)}/analytics/stats`, link.token)).status).toBe(200);
  });

  test('the token reaches nothing else: other sites and orgs 404, visitors, settings and writes 403', async () => {
    const link = await createLink();
    const t = link.token;
    expect(await a.api.get(`${siteBase(a.orgId, other.id)}/analytics/stats`, t)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    expect(await a.api.get(`${siteBase(b.orgId, b.site.id)}/analytics/stats`, t)).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    const readOnly = { status: 403, body: { error: 'Shared links are read-only' } };
    expect(await a.api.get(`${siteBase()}/visitors`, t)).toMatchObject(readOnly);
    expect(await a.api.get(siteBase(), t)).toMatchObject(readOnly);
    expect(await a.api.get(`/api/v1/organizations/${a.orgId}/sites`, t)).toMatchObject(readOnly);
    expect(await a.api.post(`${siteBase()}/annotations`, { date: '2026-03-02', text: 'defaced' }, t)).toMatchObject(readOnly);
    expect(await a.api.post(`${siteBase()}/goals`, { name: 'g', type: 'event', event_name: 'x' }, t)).toMatchObject(readOnly);
    expect(await a.api.del(siteBase(), t)).toMatchObject(readOnly);
    expect(await a.api.post(linksPath(), {}, t)).toMatchObject(readOnly);
    expect(await a.api.get(`/api/v1/organizations/${a.orgId}/api-keys`, t)).toMatchObject(readOnly);
    expect(await a.api.get('/api/v1/auth/me', t)).toMatchObject(readOnly);
    // Nothing was written, and the site is still there.
    expect((await a.api.get(`${siteBase()}/annotations`, a.token)).body.data.annotations).toEqual([]);
    expect((await a.api.get(siteBase(), a.token)).status).toBe(200);
  });

  test('contract §4 order: unknown token, then organization, then read-only, then site, then body', async () => {
    const link = await createLink();
    const junk = (token: string, orgId: string, siteId: string) =>
      a.api.call('POST', `${siteBase(orgId, siteId)}/annotations`, { token, raw: '{"date":', headers: { 'content-type': 'application/json' } });
    const NO_SITE = '00000000-0000-0000-0000-000000000000';
    expect(await junk(`shl_${'9'.repeat(32)}`, b.orgId, NO_SITE)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    const foreign = await junk(link.token, b.orgId, NO_SITE);
    expect(foreign).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    expect(foreign.headers.get('x-ratelimit-limit')).toBe('600');
    expect(await junk(link.token, a.orgId, NO_SITE)).toMatchObject({ status: 403, body: { error: 'Shared links are read-only' } });
    expect(await a.api.get(`${siteBase(a.orgId, NO_SITE)}/analytics/stats`, link.token)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    expect(await a.api.get(`${siteBase()}/funnels/${NO_SITE}/analysis`, link.token)).toMatchObject({ status: 404, body: { error: 'Funnel not found' } });
    expect((await a.api.get(`${siteBase()}/analytics/stats?period=fortnight`, link.token)).status).toBe(400);
  });

  test('revoke: the link and the share page stop at once; a second revoke is a 404', async () => {
    const link = await createLink();
    expect((await a.api.get(`${siteBase()}/analytics/stats`, link.token)).status).toBe(200);
    const del = await a.api.del(`${linksPath()}/${link.id}`, a.token);
    expect(del).toMatchObject({ status: 200, body: { data: { id: link.id, status: 'revoked' } } });
    expect(await a.api.get(`${siteBase()}/analytics/stats`, link.token)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    expect(await a.api.get(`/api/v1/share/${link.token}`)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect((await a.api.get(linksPath(), a.token)).body.data.shared_links.map((l: any) => l.id)).not.toContain(link.id);
    expect(await a.api.del(`${linksPath()}/${link.id}`, a.token)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect(await a.api.del(`${linksPath()}/not-a-uuid`, a.token)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
  });

  test('management is for members of the site\'s organization, by session', async () => {
    const link = await createLink();
    expect(await b.api.get(linksPath(), b.token)).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    expect(await b.api.del(`${linksPath()}/${link.id}`, b.token)).toMatchObject({ status: 404 });
    expect(await a.api.post(linksPath(), {}, a.key)).toMatchObject({ status: 403, body: { error: 'API keys cannot access this endpoint' } });
    expect((await a.api.post(linksPath(), { name: 'x'.repeat(101) }, a.token)).status).toBe(400);
    expect((await a.api.post(linksPath(), { password: 'short' }, a.token)).status).toBe(400);
    // b cannot revoke a's link through b's own site either.
    expect(await b.api.del(`${siteBase(b.orgId, b.site.id)}/shared-links/${link.id}`, b.token)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect((await a.api.get(`${siteBase()}/analytics/stats`, link.token)).status).toBe(200);
  });

  test('unknown tokens: 404 on the share page, 401 on the API', async () => {
    expect(await a.api.get(`/api/v1/share/shl_${'0'.repeat(32)}`)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect(await a.api.get('/api/v1/share/whatever')).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    for (const t of [`shl_${'0'.repeat(32)}`, `shs_${'0'.repeat(64)}`]) {
      expect(await a.api.get(`${siteBase()}/analytics/stats`, t)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    }
  });

  test('a deleted site takes its links along', async () => {
    const site = (await a.api.post(`/api/v1/organizations/${a.orgId}/sites`, { domain: 'gone.example' }, a.token)).body.data;
    const link = (await a.api.post(linksPath(site.id), {}, a.token)).body.data;
    expect((await a.api.get(`/api/v1/share/${link.token}`)).status).toBe(200);
    expect((await a.api.del(`/api/v1/organizations/${a.orgId}/sites/${site.id}`, a.token)).status).toBe(200);
    expect((await a.api.get(`/api/v1/share/${link.token}`)).status).toBe(404);
    expect((await a.api.get(`${siteBase(a.orgId, site.id)}/analytics/stats`, link.token)).status).toBe(401);
  });
});

describe('password', () => {
  test('create with a password, open it logged out, unlock, read, revoke', async () => {
    const link = await createLink({ password: 'open sesame' });
    expect(link.has_password).toBe(true);
    const api = client(srv.url); // no session anywhere below
    expect((await api.get(`/api/v1/share/${link.token}`)).body.data.password_required).toBe(true);
    // The bare link token reads nothing.
    expect(await api.get(`${siteBase()}/analytics/stats`, link.token)).toMatchObject({ status: 401, body: { error: 'Password required' } });
    const wrong = await api.call('POST', `/api/v1/share/${link.token}/unlock`, { body: { password: 'open says me' }, headers: freshIp() });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid password' } });
    expect(wrong.headers.get('x-ratelimit-limit')).toBe('5');
    const unlocked = await api.call('POST', `/api/v1/share/${link.token}/unlock`, { body: { password: 'open sesame' }, headers: freshIp() });
    expect(unlocked.status).toBe(200);
    const access: string = unlocked.body.data.token;
    expect(access).toMatch(/^shs_[0-9a-f]{64}$/);
    const hours = (Date.parse(unlocked.body.data.expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const stats = await api.get(`${siteBase()}/analytics/stats`, access);
    expect(stats.status).toBe(200);
    expect(stats.body.data.metrics.pageviews).toBe(1);
    // The access token is as read-only and as site-bound as the link.
    expect(await api.get(`${siteBase()}/visitors`, access)).toMatchObject({ status: 403, body: { error: 'Shared links are read-only' } });
    expect(await api.get(`${siteBase(a.orgId, other.id)}/analytics/stats`, access)).toMatchObject({ status: 404 });
    // Revoking the link ends its access tokens at once.
    expect((await a.api.del(`${linksPath()}/${link.id}`, a.token)).status).toBe(200);
    expect(await api.get(`${siteBase()}/analytics/stats`, access)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    expect((await api.call('POST', `/api/v1/share/${link.token}/unlock`, { body: { password: 'open sesame' }, headers: freshIp() })).status).toBe(404);
  });

  test('bad unlock requests: 400 for a bad body, 400 for a link without a password, 404 for an unknown link', async () => {
    const open = await createLink();
    const locked = await createLink({ password: 'open sesame' });
    const unlock = (token: string, body: unknown) => a.api.call('POST', `/api/v1/share/${token}/unlock`, { body, headers: freshIp() });
    expect((await unlock(locked.token, {})).status).toBe(400);
    expect((await a.api.call('POST', `/api/v1/share/${locked.token}/unlock`, { raw: '{"password":', headers: { 'content-type': 'application/json', ...freshIp() } })).status).toBe(400);
    expect(await unlock(open.token, { password: 'anything' })).toMatchObject({ status: 400, body: { error: 'This shared link has no password: use its token directly' } });
    expect(await unlock(`shl_${'1'.repeat(32)}`, { password: 'anything' })).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
  });

  test('password guesses are limited per link across IPs, and per IP across links', async () => {
    const link = await createLink({ password: 'open sesame' });
    const guess = (headers: Record<string, string>, token = link.token, password = 'not it at all') =>
      a.api.call('POST', `/api/v1/share/${token}/unlock`, { body: { password }, headers });
    // AUTH_RATE_LIMIT=5: five guesses from five IPs, then the link refuses even the right password.
    for (let i = 0; i < 5; i++) expect((await guess(freshIp())).status).toBe(401);
    const sixth = await guess(freshIp(), link.token, 'open sesame');
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Other links are not locked by it.
    const spare = await createLink({ password: 'open sesame' });
    expect((await guess(freshIp(), spare.token, 'open sesame')).status).toBe(200);
    // One IP trying many links meets the per-IP limit (shared with login).
    const ip = freshIp();
    const links = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createLink({ password: 'open sesame' })));
    const statuses = [];
    for (const l of links) statuses.push((await guess(ip, l.token)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test('shared-link reads are limited per link, 600 per minute', async () => {
    const link = await createLink();
    const r = await a.api.get(`${siteBase()}/annotations`, link.token);
    const remaining = Number(r.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeLessThan(600);
    const again = await a.api.get(`${siteBase()}/annotations`, link.token);
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    // The owner's own session has its own count.
    const own = await a.api.get(`${siteBase()}/annotations`, a.token);
    expect(own.headers.get('x-ratelimit-remaining')).not.toBe(again.headers.get('x-ratelimit-remaining'));
  });
});
