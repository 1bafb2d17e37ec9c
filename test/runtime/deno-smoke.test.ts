// The same server under Deno 2 (npm package `deno`): register → site → live event → API key → sites list with that key.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client } from '../helpers/api.ts';
import { queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';

const fx = withServer({ server: { runtime: 'deno' }, timeout: 90_000 });

test('Deno: health, register, site, key, sites list with the key, errors, SIGTERM', async () => {
  const api = client(fx.srv.url);
  expect(await api.get('/health')).toMatchObject({ status: 200, body: { success: true, data: { status: 'ok' } } });

  const reg = await api.post('/api/v1/auth/register', { email: 'deno@example.com', password: 'long enough' });
  expect(reg.status).toBe(201);
  const { token, organization } = reg.body.data;

  const site = await api.post(`/api/v1/organizations/${organization.id}/sites`, { domain: 'deno.example.com', timezone: 'Asia/Tokyo' }, token);
  expect(site.status).toBe(201);
  expect(site.body.data.public_id).toMatch(/^pk_live_[0-9a-f]{32}$/);

  // The durable log (its segment files, opened for synchronous writes) works the same: 202, then stored.
  expect(await sendEvent(fx.srv.url, { site_id: site.body.data.public_id, url: 'https://deno.example.com/live' })).toBe(202);

  const key = await api.post(`/api/v1/organizations/${organization.id}/api-keys`, { name: 'deno', scopes: ['sites:read'] }, token);
  expect(key.status).toBe(201);
  expect(key.body.data.key).toMatch(/^sk_live_[0-9a-f]{32}$/);

  const list = await api.get(`/api/v1/organizations/${organization.id}/sites`, key.body.data.key);
  expect(list.status).toBe(200);
  expect(list.body.data.sites).toEqual([site.body.data]);
  expect(list.headers.get('x-ratelimit-remaining')).toBe('599');

  // The auth checks and the error path behave as under Bun.
  const malformed = await api.call('POST', `/api/v1/organizations/${organization.id}/api-keys`, { token: key.body.data.key, raw: '{', headers: { 'content-type': 'application/json' } });
  expect(malformed).toMatchObject({ status: 403, body: { error: 'API keys cannot access this endpoint' } });
  expect(await api.get('/nope')).toMatchObject({ status: 404, body: { error: 'Not found' } });
  expect((await api.get('/api/v1/openapi.json')).body.openapi).toMatch(/^3\./);

  // Deno has no body limit of its own: a chunked body over 16 MiB is cut off, never buffered whole.
  // The body is valid JSON, so without the cap it would parse and fail on the email field instead.
  const enc = new TextEncoder();
  const parts = [enc.encode('{"email":"'), ...Array.from({ length: 17 }, () => new Uint8Array(1024 * 1024).fill(0x61)), enc.encode('","password":"x"}')];
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      const next = parts.shift();
      if (next) c.enqueue(next);
      else c.close();
    },
  });
  const chunked = await fetch(`${fx.srv.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
  expect([400, 413]).toContain(chunked.status);
  const error = (await chunked.json()).error;
  expect(error).not.toContain('email');

  expect(await fx.srv.stop()).toBe(0);
  const events = await queryStored<{ path: string }>(fx.srv.dataDir, `SELECT path FROM ${await storedRelation(fx.srv.dataDir, 'events')}`);
  expect(events).toEqual([{ path: '/live' }]);
}, 60_000);
