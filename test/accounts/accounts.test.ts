// Register, login, logout, me (contract §3): every status and message, token format, session-only endpoints.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';

let srv: TestServer;
let api: ReturnType<typeof client>;
let n = 0;
const email = () => `person${n++}@example.com`;

beforeAll(async () => {
  // The auth limit is per client IP and every test here comes from 127.0.0.1.
  srv = await startServer({ env: { AUTH_RATE_LIMIT: '50' } });
  api = client(srv.url);
});
afterAll(async () => { await srv.cleanup(); });

describe('register', () => {
  test('201 with user, owned organization, token and expiry', async () => {
    const r = await api.post('/api/v1/auth/register', { email: 'Mixed.Case@Example.COM', password: 'hunter2hunter2', name: 'Mia' });
    expect(r.status).toBe(201);
    const d = r.body.data;
    expect(Object.keys(d).sort()).toEqual(['expires_at', 'organization', 'token', 'user']);
    expect(Object.keys(d.user).sort()).toEqual(['created_at', 'email', 'id', 'name']);
    expect(d.user).toMatchObject({ email: 'mixed.case@example.com', name: 'Mia' });
    expect(d.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(d.organization).sort()).toEqual(['created_at', 'id', 'name', 'plan']);
    expect(d.organization.plan).toBe('startup');
    // ≥ 128 random bits: 64 hex characters after the prefix.
    expect(d.token).toMatch(/^ses_[0-9a-f]{64}$/);
    const days = (Date.parse(d.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(JSON.stringify(r.body)).not.toContain('hunter2');
    const me = await api.get('/api/v1/auth/me', d.token);
    expect(me.body.data.organizations).toEqual([{ id: d.organization.id, name: d.organization.name, plan: 'startup', role: 'owner' }]);
  });

  test('name is optional and comes back as null', async () => {
    const r = await api.post('/api/v1/auth/register', { email: email(), password: 'long enough' });
    expect(r.status).toBe(201);
    expect(r.body.data.user.name).toBeNull();
  });

  test('an email already registered (in any case) → 400', async () => {
    const e = email();
    expect((await api.post('/api/v1/auth/register', { email: e, password: 'long enough' })).status).toBe(201);
    const again = await api.post('/api/v1/auth/register', { email: e.toUpperCase(), password: 'another one' });
    expect(again).toMatchObject({ status: 400, body: { error: 'Email is already registered' } });
  });

  test.each([
    ['a password under 8 characters', { email: 'x@example.com', password: 'short' }, 'password'],
    ['a missing password', { email: 'x@example.com' }, 'password'],
    ['a malformed email', { email: 'not-an-email', password: 'long enough' }, 'email'],
    ['a missing email', { password: 'long enough' }, 'email'],
    ['a non-string name', { email: 'x@example.com', password: 'long enough', name: 7 }, 'name'],
  ])('400 for %s, naming the field', async (_, body, field) => {
    const r = await api.post('/api/v1/auth/register', body);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toContain(`'${field}'`);
  });

  test('400 for a malformed or non-object JSON body', async () => {
    for (const raw of ['{"email":', '[]', '"text"']) {
      const r = await api.call('POST', '/api/v1/auth/register', { raw, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body)).toEqual(['error']);
    }
  });
});

describe('login, me, logout', () => {
  const creds = { email: 'lena@example.com', password: 'correct horse battery' };
  beforeAll(async () => { await api.post('/api/v1/auth/register', creds); });

  test('200 with user, a fresh token and expiry', async () => {
    const r = await api.post('/api/v1/auth/login', { email: 'LENA@example.com', password: creds.password });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['expires_at', 'token', 'user']);
    expect(r.body.data.user.email).toBe(creds.email);
    expect(r.body.data.token).toMatch(/^ses_[0-9a-f]{64}$/);
    const other = await api.post('/api/v1/auth/login', creds);
    expect(other.body.data.token).not.toBe(r.body.data.token);
  });

  test('wrong password and unknown email get the same 401', async () => {
    const wrong = await api.post('/api/v1/auth/login', { email: creds.email, password: 'wrong password' });
    const unknown = await api.post('/api/v1/auth/login', { email: 'nobody@example.com', password: creds.password });
    for (const r of [wrong, unknown]) expect(r).toMatchObject({ status: 401, body: { error: 'Invalid email or password' } });
  });

  test('without TRUST_PROXY, X-Forwarded-For does not open a new rate-limit bucket', async () => {
    const send = (ip: string) => api.call('POST', '/api/v1/auth/login', { body: { email: 'x@example.com', password: 'whatever1' }, headers: { 'x-forwarded-for': ip } });
    const first = Number((await send('192.0.2.1')).headers.get('x-ratelimit-remaining'));
    const second = Number((await send('192.0.2.2')).headers.get('x-ratelimit-remaining'));
    expect(second).toBe(first - 1);
  });

  test('400 for a login body without a password', async () => {
    const r = await api.post('/api/v1/auth/login', { email: creds.email });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('password');
  });

  test('logout ends that session at once, and only that one', async () => {
    const one = (await api.post('/api/v1/auth/login', creds)).body.data.token;
    const two = (await api.post('/api/v1/auth/login', creds)).body.data.token;
    expect((await api.get('/api/v1/auth/me', one)).status).toBe(200); // warm any cache
    expect(await api.post('/api/v1/auth/logout', undefined, one)).toMatchObject({ status: 200, body: { success: true, data: {} } });
    expect(await api.get('/api/v1/auth/me', one)).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
    expect(await api.post('/api/v1/auth/logout', undefined, one)).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
    expect((await api.get('/api/v1/auth/me', two)).status).toBe(200);
  });
});

describe('session-only endpoints', () => {
  test('no or a bad session → 401; an API key → 403', async () => {
    const acct = await setupAccount(srv.url, { scopes: ['sites:read'] });
    const paths: [string, string][] = [
      ['GET', '/api/v1/auth/me'],
      ['POST', '/api/v1/auth/logout'],
      ['GET', '/api/v1/organizations'],
      ['POST', '/api/v1/organizations'],
      ['PATCH', `/api/v1/organizations/${acct.orgId}`],
      ['POST', `/api/v1/organizations/${acct.orgId}/sites`],
      ['PATCH', `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`],
      ['DELETE', `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`],
      ['GET', `/api/v1/organizations/${acct.orgId}/api-keys`],
      ['POST', `/api/v1/organizations/${acct.orgId}/api-keys`],
      ['DELETE', `/api/v1/organizations/${acct.orgId}/api-keys/00000000-0000-0000-0000-000000000000`],
    ];
    for (const [method, path] of paths) {
      expect(await api.call(method, path)).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
      expect(await api.call(method, path, { token: 'ses_0000' })).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
      expect(await api.call(method, path, { token: acct.key })).toMatchObject({ status: 403, body: { error: 'API keys cannot access this endpoint' } });
    }
    // The site survived all of that.
    expect((await api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`, acct.token)).status).toBe(200);
  });
});
