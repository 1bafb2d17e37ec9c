import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client } from '../helpers/api.ts';

let srv: TestServer;
beforeAll(async () => { srv = await startServer(); });
afterAll(async () => { await srv.cleanup(); });

test('register → login → me → logout', async () => {
  const api = client(srv.url);
  const reg = await api.post('/api/v1/auth/register', { email: 'Ann@Example.com', password: 'long enough', name: 'Ann' });
  expect(reg.status).toBe(201);
  expect(reg.body.data.user.email).toBe('ann@example.com');
  expect(reg.body.data.organization.plan).toBe('startup');
  const login = await api.post('/api/v1/auth/login', { email: 'ann@example.com', password: 'long enough' });
  expect(login.status).toBe(200);
  const token = login.body.data.token;
  const me = await api.get('/api/v1/auth/me', token);
  expect(me.body.data.organizations[0].role).toBe('owner');
  expect((await api.post('/api/v1/auth/logout', undefined, token)).status).toBe(200);
  expect(await api.get('/api/v1/auth/me', token)).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
});
