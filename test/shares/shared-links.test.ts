// Shared links: create (token once), list masked, read its own site's dashboard only, password and unlock, revoke at once.
import { beforeAll, describe, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client } from '../helpers/api.ts';

const fx = withServer({ server: { env: { AUTH_RATE_LIMIT: '5', TRUST_PROXY: 'true' } }, accounts: { a: { scopes: ['analytics:read'] }, b: {} } });

let other: { id: string }; // a second site of a's organization
beforeAll(async () => {
  other = (await fx.a.api.post(`/api/v1/organizations/${fx.a.orgId}/sites`, { domain: 'other.example' }, fx.a.token)).body.data;
  // One pageview, so the shared dashboard has something to show.
  const ev = await fx.a.api.call('POST', '/api/v1/event', {
    body: { site_id: fx.a.site.public_id, url: 'https://example.com/pricing', visitor_uid: 'v1' },
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' },
  });
  expect(ev.status).toBe(202);
  for (let i = 0; i < 100; i++) {
    const s = await fx.a.api.get(`${siteBase()}/analytics/stats`, fx.a.token);
    if (s.body.data.metrics.pageviews === 1) return;
    await Bun.sleep(100);
  }
  throw new Error('the pageview was not loaded');
}, 30_000);

const siteBase = (orgId = fx.a.orgId, siteId = fx.a.site.id) => `/api/v1/organizations/${orgId}/sites/${siteId}`;
const linksPath = (siteId = fx.a.site.id) => `${siteBase(fx.a.orgId, siteId)}/shared-links`;
let ipSeq = 0;
/** Each call from its own client IP, so the per-IP auth limit does not mix into per-link counts. */
const freshIp = () => ({ 'x-forwarded-for': `198.51.100.${++ipSeq}` });

async function createLink(body: Record<string, unknown> = {}) {
  const r = await fx.a.api.post(linksPath(), body, fx.a.token);
  expect(r.status).toBe(201);
  return r.body.data as { id: string; name: string | null; token: string; url: string; has_password: boolean; created_at: string };
}

describe('lifecycle', () => {
  test('create shows the token once; the list masks it; GET /share describes the site', async () => {
    const link = await createLink({ name: 'Investors' });
    expect(link.token).toMatch(/^shl_[0-9a-f]{32}$/);
    expect(link).toMatchObject({ name: 'Investors', url: `/share/${link.token}`, has_password: false });
    expect(link.created_at).toMatch(/Z$/);
    const list = await fx.a.api.get(linksPath(), fx.a.token);
    const listed = list.body.data.shared_links.find((l: any) => l.id === link.id);
    expect(listed).toEqual({ id: link.id, name: 'Investors', has_password: false, created_at: link.created_at, token_preview: `****${link.token.slice(-4)}` });
    expect(list.text).not.toContain(link.token);
    // Another site's list does not hold it.
    expect((await fx.a.api.get(linksPath(other.id), fx.a.token)).body.data.shared_links).toEqual([]);

    const info = await fx.a.api.get(`/api/v1/share/${link.token}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toEqual({
      site: { id: fx.a.site.id, name: 'example.com', domain: 'example.com', timezone: 'UTC', currency: 'USD' },
      organization_id: fx.a.orgId,
      password_required: false,
    });
    expect(info.headers.get('x-ratelimit-limit')).toBe('600');
  });

  test('the token reads its own site\'s dashboard, exactly as the owner sees it', async () => {
    const link = await createLink();
    for (const path of ['/analytics/stats', '/analytics/pages', '/analytics/charts?period=7d', '/goals', '/goals/stats', '/funnels', '/annotations']) {
      const shared = await fx.a.api.get(siteBase() + path, link.token);
      expect(shared.status).toBe(200);
      expect(shared.headers.get('x-ratelimit-limit')).toBe('600');
      expect(shared.body).toEqual((await fx.a.api.get(siteBase() + path, fx.a.token)).body);
    }
    const pages = await fx.a.api.get(`${siteBase()}/analytics/pages`, link.token);
    expect(pages.body.data.results[0]).toMatchObject({ name: '/pricing', pageviews: 1 });
    // One goal's and one funnel's results, but not the goal's completions (they name visitors).
    const goal = (await fx.a.api.post(`${siteBase()}/goals`, { name: 'Pricing', type: 'pageview', path: '/pricing' }, fx.a.token)).body.data;
    const goalStats = await fx.a.api.get(`${siteBase()}/goals/${goal.id}/stats`, link.token);
    expect(goalStats.status).toBe(200);
    expect(goalStats.body.data.metrics.completions).toBe(1);
    expect(await fx.a.api.get(`${siteBase()}/goals/${goal.id}/completions`, link.token)).toMatchObject({ status: 403, body: { error: 'Shared links are read-only' } });
    const funnel = await fx.a.api.post(`${siteBase()}/funnels`, { name: 'F', steps: [{ type: 'pageview', value: '/' }, { type: 'pageview', value: '/pricing' }] }, fx.a.token);
    expect(funnel.status).toBe(201);
    expect((await fx.a.api.get(`${siteBase()}/funnels/${funnel.body.data.id}/analysis`, link.token)).status).toBe(200);
    expect(await fx.a.api.del(`${siteBase()}/funnels/${funnel.body.data.id}`, link.token)).toMatchObject({ status: 403, body: { error: 'Shared links are read-only' } });
    // Its site by public id too.
    expect((await fx.a.api.get(`${siteBase(fx.a.orgId, fx.a.site.public_id)}/analytics/stats`, link.token)).status).toBe(200);
  });

  test('the token reaches nothing else: other sites and orgs 404, visitors, settings and writes 403', async () => {
    const link = await createLink();
    const t = link.token;
    expect(await fx.a.api.get(`${siteBase(fx.a.orgId, other.id)}/analytics/stats`, t)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    expect(await fx.a.api.get(`${siteBase(fx.b.orgId, fx.b.site.id)}/analytics/stats`, t)).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    const readOnly = { status: 403, body: { error: 'Shared links are read-only' } };
    expect(await fx.a.api.get(`${siteBase()}/visitors`, t)).toMatchObject(readOnly);
    expect(await fx.a.api.get(siteBase(), t)).toMatchObject(readOnly);
    expect(await fx.a.api.get(`/api/v1/organizations/${fx.a.orgId}/sites`, t)).toMatchObject(readOnly);
    expect(await fx.a.api.post(`${siteBase()}/annotations`, { date: '2026-03-02', text: 'defaced' }, t)).toMatchObject(readOnly);
    expect(await fx.a.api.post(`${siteBase()}/goals`, { name: 'g', type: 'event', event_name: 'x' }, t)).toMatchObject(readOnly);
    expect(await fx.a.api.del(siteBase(), t)).toMatchObject(readOnly);
    expect(await fx.a.api.post(linksPath(), {}, t)).toMatchObject(readOnly);
    expect(await fx.a.api.get(`/api/v1/organizations/${fx.a.orgId}/api-keys`, t)).toMatchObject(readOnly);
    expect(await fx.a.api.get('/api/v1/auth/me', t)).toMatchObject(readOnly);
    // Nothing was written, and the site is still there.
    expect((await fx.a.api.get(`${siteBase()}/annotations`, fx.a.token)).body.data.annotations).toEqual([]);
    expect((await fx.a.api.get(siteBase(), fx.a.token)).status).toBe(200);
  });

  test('contract §4 order: unknown token, then organization, then read-only, then site, then body', async () => {
    const link = await createLink();
    const junk = (token: string, orgId: string, siteId: string) =>
      fx.a.api.call('POST', `${siteBase(orgId, siteId)}/annotations`, { token, raw: '{"date":', headers: { 'content-type': 'application/json' } });
    const NO_SITE = '00000000-0000-0000-0000-000000000000';
    expect(await junk(`shl_${'9'.repeat(32)}`, fx.b.orgId, NO_SITE)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    const foreign = await junk(link.token, fx.b.orgId, NO_SITE);
    expect(foreign).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    expect(foreign.headers.get('x-ratelimit-limit')).toBe('600');
    expect(await junk(link.token, fx.a.orgId, NO_SITE)).toMatchObject({ status: 403, body: { error: 'Shared links are read-only' } });
    expect(await fx.a.api.get(`${siteBase(fx.a.orgId, NO_SITE)}/analytics/stats`, link.token)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    expect(await fx.a.api.get(`${siteBase()}/funnels/${NO_SITE}/analysis`, link.token)).toMatchObject({ status: 404, body: { error: 'Funnel not found' } });
    expect((await fx.a.api.get(`${siteBase()}/analytics/stats?period=fortnight`, link.token)).status).toBe(400);
  });

  test('revoke: the link and the share page stop at once; a second revoke is a 404', async () => {
    const link = await createLink();
    expect((await fx.a.api.get(`${siteBase()}/analytics/stats`, link.token)).status).toBe(200);
    const del = await fx.a.api.del(`${linksPath()}/${link.id}`, fx.a.token);
    expect(del).toMatchObject({ status: 200, body: { data: { id: link.id, status: 'revoked' } } });
    expect(await fx.a.api.get(`${siteBase()}/analytics/stats`, link.token)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    expect(await fx.a.api.get(`/api/v1/share/${link.token}`)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect((await fx.a.api.get(linksPath(), fx.a.token)).body.data.shared_links.map((l: any) => l.id)).not.toContain(link.id);
    expect(await fx.a.api.del(`${linksPath()}/${link.id}`, fx.a.token)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect(await fx.a.api.del(`${linksPath()}/not-a-uuid`, fx.a.token)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
  });

  test('management is for members of the site\'s organization, by session', async () => {
    const link = await createLink();
    expect(await fx.b.api.get(linksPath(), fx.b.token)).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    expect(await fx.b.api.del(`${linksPath()}/${link.id}`, fx.b.token)).toMatchObject({ status: 404 });
    expect(await fx.a.api.post(linksPath(), {}, fx.a.key)).toMatchObject({ status: 403, body: { error: 'API keys cannot access this endpoint' } });
    expect((await fx.a.api.post(linksPath(), { name: 'x'.repeat(101) }, fx.a.token)).status).toBe(400);
    expect((await fx.a.api.post(linksPath(), { password: 'short' }, fx.a.token)).status).toBe(400);
    // b cannot revoke a's link through b's own site either.
    expect(await fx.b.api.del(`${siteBase(fx.b.orgId, fx.b.site.id)}/shared-links/${link.id}`, fx.b.token)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect((await fx.a.api.get(`${siteBase()}/analytics/stats`, link.token)).status).toBe(200);
  });

  test('unknown tokens: 404 on the share page, 401 on the API', async () => {
    expect(await fx.a.api.get(`/api/v1/share/shl_${'0'.repeat(32)}`)).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    expect(await fx.a.api.get('/api/v1/share/whatever')).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
    for (const t of [`shl_${'0'.repeat(32)}`, `shs_${'0'.repeat(64)}`]) {
      expect(await fx.a.api.get(`${siteBase()}/analytics/stats`, t)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    }
  });

  test('a deleted site takes its links along', async () => {
    const site = (await fx.a.api.post(`/api/v1/organizations/${fx.a.orgId}/sites`, { domain: 'gone.example' }, fx.a.token)).body.data;
    const link = (await fx.a.api.post(linksPath(site.id), {}, fx.a.token)).body.data;
    expect((await fx.a.api.get(`/api/v1/share/${link.token}`)).status).toBe(200);
    expect((await fx.a.api.del(`/api/v1/organizations/${fx.a.orgId}/sites/${site.id}`, fx.a.token)).status).toBe(200);
    expect((await fx.a.api.get(`/api/v1/share/${link.token}`)).status).toBe(404);
    expect((await fx.a.api.get(`${siteBase(fx.a.orgId, site.id)}/analytics/stats`, link.token)).status).toBe(401);
  });
});

describe('password', () => {
  test('create with a password, open it logged out, unlock, read, revoke', async () => {
    const link = await createLink({ password: 'open sesame' });
    expect(link.has_password).toBe(true);
    const api = client(fx.srv.url); // no session anywhere below
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
    expect(await api.get(`${siteBase(fx.a.orgId, other.id)}/analytics/stats`, access)).toMatchObject({ status: 404 });
    // Revoking the link ends its access tokens at once.
    expect((await fx.a.api.del(`${linksPath()}/${link.id}`, fx.a.token)).status).toBe(200);
    expect(await api.get(`${siteBase()}/analytics/stats`, access)).toMatchObject({ status: 401, body: { error: 'Invalid or expired shared link' } });
    expect((await api.call('POST', `/api/v1/share/${link.token}/unlock`, { body: { password: 'open sesame' }, headers: freshIp() })).status).toBe(404);
  });

  test('bad unlock requests: 400 for a bad body, 400 for a link without a password, 404 for an unknown link', async () => {
    const open = await createLink();
    const locked = await createLink({ password: 'open sesame' });
    const unlock = (token: string, body: unknown) => fx.a.api.call('POST', `/api/v1/share/${token}/unlock`, { body, headers: freshIp() });
    expect((await unlock(locked.token, {})).status).toBe(400);
    expect((await fx.a.api.call('POST', `/api/v1/share/${locked.token}/unlock`, { raw: '{"password":', headers: { 'content-type': 'application/json', ...freshIp() } })).status).toBe(400);
    expect(await unlock(open.token, { password: 'anything' })).toMatchObject({ status: 400, body: { error: 'This shared link has no password: use its token directly' } });
    expect(await unlock(`shl_${'1'.repeat(32)}`, { password: 'anything' })).toMatchObject({ status: 404, body: { error: 'Shared link not found' } });
  });

  test('password guesses are limited per link across IPs, and per IP across links', async () => {
    const link = await createLink({ password: 'open sesame' });
    const guess = (headers: Record<string, string>, token = link.token, password = 'not it at all') =>
      fx.a.api.call('POST', `/api/v1/share/${token}/unlock`, { body: { password }, headers });
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
    const r = await fx.a.api.get(`${siteBase()}/annotations`, link.token);
    const remaining = Number(r.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeLessThan(600);
    const again = await fx.a.api.get(`${siteBase()}/annotations`, link.token);
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    // The owner's own session has its own count.
    const own = await fx.a.api.get(`${siteBase()}/annotations`, fx.a.token);
    expect(own.headers.get('x-ratelimit-remaining')).not.toBe(again.headers.get('x-ratelimit-remaining'));
  });
});
