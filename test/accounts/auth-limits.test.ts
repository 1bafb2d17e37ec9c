// The auth endpoints' per-IP limit (AUTH_RATE_LIMIT, contract §5) and closed registration (ALLOW_REGISTRATION=false).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client } from '../helpers/api.ts';

describe('AUTH_RATE_LIMIT=5', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startServer({ env: { AUTH_RATE_LIMIT: '5', TRUST_PROXY: 'true' } }); });
  afterAll(async () => { await srv.cleanup(); });

  const from = (ip: string) => ({ 'x-forwarded-for': `${ip}, 10.0.0.1` });
  const login = (ip: string, raw = '{"email":"who@example.com","password":"whatever1"}') =>
    client(srv.url).call('POST', '/api/v1/auth/login', { raw, headers: { 'content-type': 'application/json', ...from(ip) } });

  test('every counted response carries the headers, 2xx or 4xx; the 6th gets 429 with Retry-After', async () => {
    const api = client(srv.url);
    const reg = await api.call('POST', '/api/v1/auth/register', { body: { email: 'rl@example.com', password: 'long enough' }, headers: from('203.0.113.7') });
    const responses = [
      reg,
      await login('203.0.113.7'), // 401
      await login('203.0.113.7', '{"email":'), // malformed: 400
      await login('203.0.113.7', '{"email":"x@example.com"}'), // invalid: 400
      await api.call('POST', '/api/v1/auth/login', { body: { email: 'rl@example.com', password: 'long enough' }, headers: from('203.0.113.7') }),
    ];
    expect(responses.map((r) => r.status)).toEqual([201, 401, 400, 400, 200]);
    responses.forEach((r, i) => {
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    });
    const sixth = await login('203.0.113.7');
    expect(sixth.status).toBe(429);
    const reset = Number(sixth.headers.get('x-ratelimit-reset'));
    expect(sixth.body).toEqual({ error: `Rate limit exceeded. Retry after ${new Date(reset * 1000).toISOString()}` });
    expect(sixth.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Over the limit, a junk body and a correct password are refused alike.
    expect((await login('203.0.113.7', '{"email":')).status).toBe(429);
    expect((await api.call('POST', '/api/v1/auth/register', { body: { email: 'rl2@example.com', password: 'long enough' }, headers: from('203.0.113.7') })).status).toBe(429);
  });

  test('the limit is per client IP (first X-Forwarded-For hop behind a trusted proxy)', async () => {
    const r = await login('198.51.100.9');
    expect(r.status).toBe(401);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  test('logout and me are not auth-limited', async () => {
    const api = client(srv.url);
    const me = await api.call('GET', '/api/v1/auth/me', { headers: from('203.0.113.7') });
    expect(me).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
  });
});

describe('ALLOW_REGISTRATION=false', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startServer({ env: { ALLOW_REGISTRATION: 'false' } }); });
  afterAll(async () => { await srv.cleanup(); });

  test('register → 403 and creates nothing', async () => {
    const api = client(srv.url);
    expect(await api.post('/api/v1/auth/register', { email: 'new@example.com', password: 'long enough' })).toMatchObject({
      status: 403,
      body: { error: 'Registration is closed on this server' },
    });
    expect(await api.post('/api/v1/auth/login', { email: 'new@example.com', password: 'long enough' })).toMatchObject({ status: 401 });
  });
});
