// Registrations of one e-mail at once: exactly one account (users.email is UNIQUE), every other attempt the contract's 400.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client } from '../helpers/api.ts';

const fx = withServer({ server: { env: { AUTH_RATE_LIMIT: '50' } } });

  // The auth limit is per client IP; every request here comes from one.

test('12 concurrent registrations of one e-mail (in several spellings): one 201, eleven 400, one user', async () => {
  const api = client(fx.srv.url);
  const spellings = ['race@example.com', 'RACE@example.com', 'race@EXAMPLE.com'];
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) => api.post('/api/v1/auth/register', { email: spellings[i % 3], password: `password-${i}` })),
  );
  expect(results.filter((r) => r.status === 201).length).toBe(1);
  const refused = results.filter((r) => r.status !== 201);
  for (const r of refused) expect(r).toMatchObject({ status: 400, body: { error: 'Email is already registered' } });
  // The one account that exists logs in with the password of the registration that won.
  const winner = results.findIndex((r) => r.status === 201);
  const login = await api.post('/api/v1/auth/login', { email: 'race@example.com', password: `password-${winner}` });
  expect(login.status).toBe(200);
  expect(login.body.data.user.id).toBe(results[winner]!.body.data.user.id);
}, 60_000);
