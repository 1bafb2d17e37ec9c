// Contract §5 on data endpoints: 600 requests per 60 s window per key (and per user for sessions), X-RateLimit-* and Retry-After.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount, type Res } from '../helpers/api.ts';


const fx = withServer({ accounts: { a: { scopes: ['sites:read'] }, b: { scopes: ['sites:read'] } } });

const sites = (orgId: string) => `/api/v1/organizations/${orgId}/sites`;

/** Sends n requests, 20 at a time, and returns the responses in the order they were counted. */
async function burst(n: number, send: () => Promise<Res>): Promise<Res[]> {
  const out: Res[] = [];
  for (let i = 0; i < n; i += 20) out.push(...(await Promise.all(Array.from({ length: Math.min(20, n - i) }, send))));
  return out.sort((x, y) => Number(y.headers.get('x-ratelimit-remaining')) - Number(x.headers.get('x-ratelimit-remaining')));
}

function expectHeaders(r: Res) {
  expect(r.headers.get('x-ratelimit-limit')).toBe('600');
  expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  const reset = Number(r.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(now + 61);
}

test('a key: 600 requests pass with counting headers, the 601st gets 429 with Retry-After', async () => {
  const ok = await burst(600, () => fx.a.api.get(sites(fx.a.orgId), fx.a.key));
  expect(ok.every((r) => r.status === 200)).toBe(true);
  for (const r of [ok[0], ok[599]]) expectHeaders(r);
  expect(ok[0].headers.get('x-ratelimit-remaining')).toBe('599');
  expect(ok[599].headers.get('x-ratelimit-remaining')).toBe('0');
  expect(new Set(ok.map((r) => r.headers.get('x-ratelimit-remaining'))).size).toBe(600);

  const r601 = await fx.a.api.get(sites(fx.a.orgId), fx.a.key);
  expect(r601.status).toBe(429);
  expectHeaders(r601);
  expect(r601.headers.get('x-ratelimit-remaining')).toBe('0');
  const reset = Number(r601.headers.get('x-ratelimit-reset'));
  expect(r601.body).toEqual({ error: `Rate limit exceeded. Retry after ${new Date(reset * 1000).toISOString()}` });
  const retryAfter = Number(r601.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}, 60_000);

test('4. the rate limit comes before the organization, scope and site checks', async () => {
  const foreign = await fx.a.api.get(sites(fx.b.orgId), fx.a.key);
  expect(foreign.status).toBe(429);
  expect(foreign.headers.get('retry-after')).toMatch(/^\d+$/);
  expect((await fx.a.api.get(`${sites(fx.a.orgId)}/nope`, fx.a.key)).status).toBe(429);
});

test('limits are per key: another key of another organization is unaffected', async () => {
  const r = await fx.b.api.get(sites(fx.b.orgId), fx.b.key);
  expect(r.status).toBe(200);
  expect(r.headers.get('x-ratelimit-remaining')).toBe('599');
});

test('a second key of the same organization has its own window', async () => {
  const k = await fx.a.api.post(`/api/v1/organizations/${fx.a.orgId}/api-keys`, { name: 'second', scopes: ['sites:read'] }, fx.a.token);
  const r = await fx.a.api.get(sites(fx.a.orgId), k.body.data.key);
  expect(r.status).toBe(200);
  expect(r.headers.get('x-ratelimit-remaining')).toBe('599');
});

test('sessions on data endpoints: 600 per user, then 429', async () => {
  const ok = await burst(600, () => fx.b.api.get(sites(fx.b.orgId), fx.b.token));
  expect(ok.every((r) => r.status === 200)).toBe(true);
  expect(ok[599].headers.get('x-ratelimit-remaining')).toBe('0');
  const over = await fx.b.api.get(sites(fx.b.orgId), fx.b.token);
  expect(over.status).toBe(429);
  expect(over.body.error).toStartWith('Rate limit exceeded. Retry after ');
  // A session-only endpoint is not a data endpoint: not limited, no headers.
  const keys = await fx.b.api.get(`/api/v1/organizations/${fx.b.orgId}/api-keys`, fx.b.token);
  expect(keys.status).toBe(200);
  expect(keys.headers.get('x-ratelimit-limit')).toBeNull();
}, 60_000);
