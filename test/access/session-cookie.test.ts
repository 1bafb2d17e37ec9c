// The dashboard's session cookie: set by login/register with cookie:true, accepted only from our own origin, cleared by logout.
import { describe, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client, setupAccount } from '../helpers/api.ts';

const fx = withServer({ accounts: { a: {} } });

/** The cookie's value from a response's Set-Cookie. */
const cookieOf = (h: Headers) => h.get('set-cookie')?.match(/^tern_session=([^;]*)/)?.[1];
const own = () => ({ origin: fx.srv.url, 'sec-fetch-site': 'same-origin' });
const foreign = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const withCookie = (value: string, headers: Record<string, string> = {}) => ({ cookie: `theme=dark; tern_session=${value}`, ...headers });

async function cookieLogin(email = fx.a.email) {
  const r = await fx.a.api.call('POST', '/api/v1/auth/login', { body: { email, password: 'correct horse', cookie: true } });
  expect(r.status).toBe(200);
  return { r, value: cookieOf(r.headers)! };
}

describe('setting the cookie', () => {
  test('login with cookie:true sets an HttpOnly, SameSite=Strict cookie for 30 days and leaves the token out of the body', async () => {
    const { r, value } = await cookieLogin();
    expect(value).toMatch(/^ses_[0-9a-f]{64}$/);
    expect(r.headers.get('set-cookie')).toBe(`tern_session=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000`);
    expect(r.body.data.token).toBeUndefined();
    expect(Object.keys(r.body.data)).toEqual(['user', 'expires_at']);
    expect(r.body.data.user.email).toBe(fx.a.email);
    // The cookie is a working session.
    const me = await fx.a.api.call('GET', '/api/v1/auth/me', { headers: withCookie(value, own()) });
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(fx.a.email);
  });

  test('without cookie:true the answer is as before: the token in the body, no Set-Cookie', async () => {
    for (const cookie of [undefined, false]) {
      const r = await fx.a.api.post('/api/v1/auth/login', { email: fx.a.email, password: 'correct horse', cookie });
      expect(r.status).toBe(200);
      expect(r.headers.get('set-cookie')).toBeNull();
      expect(Object.keys(r.body.data)).toEqual(['user', 'token', 'expires_at']);
    }
  });

  test('register with cookie:true sets the cookie; a wrong password sets none', async () => {
    const email = `cookie-${Date.now()}@example.com`;
    const r = await fx.a.api.post('/api/v1/auth/register', { email, password: 'long enough', cookie: true });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body.data)).toEqual(['user', 'organization', 'expires_at']);
    const value = cookieOf(r.headers)!;
    const orgs = await fx.a.api.call('GET', '/api/v1/organizations', { headers: withCookie(value, own()) });
    expect(orgs.body.data.organizations.map((o: any) => o.id)).toEqual([r.body.data.organization.id]);
    const bad = await fx.a.api.post('/api/v1/auth/login', { email, password: 'wrong password', cookie: true });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();
    expect((await fx.a.api.post('/api/v1/auth/login', { email, password: 'long enough', cookie: 'yes' })).status).toBe(400);
  });

  test('another site cannot sign a browser in: a cross-site login or register asking for the cookie is refused', async () => {
    const login = await fx.a.api.call('POST', '/api/v1/auth/login', { body: { email: fx.a.email, password: 'correct horse', cookie: true }, headers: foreign });
    expect(login).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
    expect(login.headers.get('set-cookie')).toBeNull();
    const email = `csrf-${Date.now()}@example.com`;
    const reg = await fx.a.api.call('POST', '/api/v1/auth/register', { body: { email, password: 'long enough', cookie: true }, headers: { origin: 'https://evil.example' } });
    expect(reg.status).toBe(403);
    // No account was made: the email is still free.
    expect((await fx.a.api.post('/api/v1/auth/register', { email, password: 'long enough' })).status).toBe(201);
    // From our own origin it works.
    expect((await fx.a.api.call('POST', '/api/v1/auth/login', { body: { email: fx.a.email, password: 'correct horse', cookie: true }, headers: own() })).status).toBe(200);
  });

  test('logout with the cookie ends that session and clears the cookie', async () => {
    const { value } = await cookieLogin();
    const out = await fx.a.api.call('POST', '/api/v1/auth/logout', { headers: withCookie(value, own()) });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe('tern_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    const me = await fx.a.api.call('GET', '/api/v1/auth/me', { headers: withCookie(value, own()) });
    expect(me).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
    // The dead cookie is cleared by the answer that found it dead.
    expect(me.headers.get('set-cookie')).toBe('tern_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    // The session is gone as a bearer token too.
    expect((await fx.a.api.get('/api/v1/auth/me', value)).status).toBe(401);
  });
});

describe('using the cookie', () => {
  test('a same-origin request with the cookie reaches a data endpoint, with the session rate limit', async () => {
    const { value } = await cookieLogin();
    const path = `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/analytics/stats`;
    for (const headers of [own(), { origin: fx.srv.url }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}] as Record<string, string>[]) {
      const r = await fx.a.api.call('GET', path, { headers: withCookie(value, headers) });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('600');
    }
  });

  test('a cross-site write carrying the cookie is refused and does nothing', async () => {
    const { value } = await cookieLogin();
    const key = await fx.a.api.post(`/api/v1/organizations/${fx.a.orgId}/api-keys`, { name: 'victim', scopes: ['sites:read'] }, fx.a.token);
    const keyPath = `/api/v1/organizations/${fx.a.orgId}/api-keys/${key.body.data.id}`;
    const refusals: Record<string, string>[] = [
      foreign,
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.example.com' },
      { origin: 'null' },
      {}, // a write that cannot show where it came from
    ];
    for (const headers of refusals) {
      const del = await fx.a.api.call('DELETE', keyPath, { headers: withCookie(value, headers) });
      expect(del).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
      // A form post (the classic CSRF) on a session-only endpoint is refused before its body is read.
      const site = await fx.a.api.call('POST', `/api/v1/organizations/${fx.a.orgId}/sites`, {
        raw: 'domain=evil.example', headers: withCookie(value, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }),
      });
      expect(site).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
      const logout = await fx.a.api.call('POST', '/api/v1/auth/logout', { headers: withCookie(value, headers) });
      expect(logout.status).toBe(403);
    }
    // Nothing happened: the key is listed, no site was added, the session lives.
    const keys = await fx.a.api.get(`/api/v1/organizations/${fx.a.orgId}/api-keys`, fx.a.token);
    expect(keys.body.data.api_keys.map((k: any) => k.id)).toContain(key.body.data.id);
    const sites = await fx.a.api.get(`/api/v1/organizations/${fx.a.orgId}/sites`, fx.a.token);
    expect(sites.body.data.sites.map((s: any) => s.domain)).not.toContain('evil.example');
    expect((await fx.a.api.call('GET', '/api/v1/auth/me', { headers: withCookie(value, own()) })).status).toBe(200);
    // The same write from our own origin goes through.
    const ok = await fx.a.api.call('DELETE', keyPath, { headers: withCookie(value, own()) });
    expect(ok).toMatchObject({ status: 200, body: { data: { id: key.body.data.id, status: 'revoked' } } });
  });

  test('a cross-site read is answered as if it had no cookie', async () => {
    const { value } = await cookieLogin();
    const stats = await fx.a.api.call('GET', `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/analytics/stats`, { headers: withCookie(value, foreign) });
    expect(stats).toMatchObject({ status: 401, body: { error: 'Missing or invalid Authorization header' } });
    const me = await fx.a.api.call('GET', '/api/v1/auth/me', { headers: withCookie(value, { origin: 'https://evil.example' }) });
    expect(me).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
  });

  test('Authorization: Bearer wins over the cookie', async () => {
    const b = await setupAccount(fx.srv.url, { scopes: ['sites:read'] });
    const { value } = await cookieLogin();
    // a's cookie, b's bearer session: the request is b's.
    const me = await fx.a.api.call('GET', '/api/v1/auth/me', { token: b.token, headers: withCookie(value, own()) });
    expect(me.body.data.user.email).toBe(b.email);
    // A bad bearer is not rescued by a good cookie.
    const bad = await fx.a.api.call('GET', '/api/v1/auth/me', { token: 'ses_nope', headers: withCookie(value, own()) });
    expect(bad.status).toBe(401);
    // A bearer key on a cross-site request is not a cookie: the origin check does not apply.
    const key = await fx.a.api.call('GET', `/api/v1/organizations/${b.orgId}/sites`, { token: b.key, headers: withCookie(value, foreign) });
    expect(key.status).toBe(200);
  });

  test('the cookie carries only a session: an API key in it is not a credential', async () => {
    const b = await setupAccount(fx.srv.url, { scopes: ['sites:read'] });
    const r = await fx.a.api.call('GET', `/api/v1/organizations/${b.orgId}/sites`, { headers: withCookie(b.key, own()) });
    expect(r).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
  });
});

describe('TRUST_PROXY=true', () => {
  const proxied = withServer({ server: { env: { TRUST_PROXY: 'true' } } });

  test('X-Forwarded-Proto: https makes the cookie Secure, and logout clears it as Secure', async () => {
    const api = client(proxied.srv.url);
    const email = `secure-${Date.now()}@example.com`;
    const reg = await api.call('POST', '/api/v1/auth/register', { body: { email, password: 'long enough', cookie: true }, headers: { 'x-forwarded-proto': 'https' } });
    expect(reg.headers.get('set-cookie')).toEndWith('; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=2592000');
    const plain = await api.call('POST', '/api/v1/auth/login', { body: { email, password: 'long enough', cookie: true }, headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers.get('set-cookie')).not.toContain('Secure');
    // Behind the proxy the browser's Origin names the public host, which the proxy passes on as X-Forwarded-Host.
    const value = cookieOf(reg.headers)!;
    const out = await api.call('POST', '/api/v1/auth/logout', {
      headers: withCookie(value, { origin: 'https://stats.example.com', 'x-forwarded-host': 'stats.example.com', 'x-forwarded-proto': 'https' }),
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe('tern_session=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0');
  });

  test('without TRUST_PROXY, X-Forwarded-Proto does not count', async () => {
    const r = await client(fx.srv.url).call('POST', '/api/v1/auth/login', { body: { email: fx.a.email, password: 'correct horse', cookie: true }, headers: { 'x-forwarded-proto': 'https' } });
    expect(r.headers.get('set-cookie')).not.toContain('Secure');
  });
});
