// Contract §4's order of checks on a data endpoint: each step must win over every later one.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';


const fx = withServer({ accounts: { a: { scopes: ['sites:read', 'goals:write'] }, b: { scopes: ['sites:read'] } } });

const NO_SITE = '00000000-0000-0000-0000-000000000000';
const goals = (orgId: string, siteId: string) => `/api/v1/organizations/${orgId}/sites/${siteId}/goals`;
/** The worst request possible: foreign org, unknown site and a malformed body. */
const badGoal = (token: string | undefined, orgId = fx.b.orgId, siteId = NO_SITE) =>
  fx.a.api.call('POST', goals(orgId, siteId), { token, raw: '{"name": ', headers: { 'content-type': 'application/json' } });

test('1. no Authorization header beats everything', async () => {
  expect(await badGoal(undefined)).toMatchObject({ status: 401, body: { error: 'Missing or invalid Authorization header' } });
  const basic = await fx.a.api.call('GET', `/api/v1/organizations/${fx.a.orgId}/sites`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
  expect(basic).toMatchObject({ status: 401, body: { error: 'Missing or invalid Authorization header' } });
  const empty = await fx.a.api.call('GET', `/api/v1/organizations/${fx.a.orgId}/sites`, { headers: { authorization: 'Bearer ' } });
  expect(empty).toMatchObject({ status: 401, body: { error: 'Missing or invalid Authorization header' } });
});

test('2. an unknown key beats plan, org, scope, site and body', async () => {
  for (const token of [`sk_live_${'f'.repeat(32)}`, 'sk_live_short', 'not-a-key-at-all']) {
    expect(await badGoal(token)).toMatchObject({ status: 401, body: { error: 'Invalid or expired API key' } });
  }
});

test('3. Maker plan beats rate limit, org, scope, site and body', async () => {
  const m = await setupAccount(fx.srv.url, { scopes: ['sites:read'] });
  await m.api.patch(`/api/v1/organizations/${m.orgId}`, { plan: 'maker' }, m.token);
  const r = await badGoal(m.key);
  expect(r).toMatchObject({ status: 402, body: { error: 'API key access requires a Startup plan or higher' } });
});

test('5. a foreign organization beats the scope check, the site and the body', async () => {
  // a's key holds goals:write, but b's org is not a's: 404, never 403 or 400.
  const r = await badGoal(fx.a.key);
  expect(r).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
  expect(r.headers.get('x-ratelimit-limit')).toBe('600');
  // b's key has no goals:write: in b's own org that is a 403, in a's org still a 404.
  expect(await badGoal(fx.b.key, fx.a.orgId, fx.a.site.id)).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
});

test('6. a missing scope beats an unknown site and a bad body', async () => {
  const r = await badGoal(fx.b.key, fx.b.orgId, NO_SITE);
  expect(r).toMatchObject({ status: 403, body: { error: 'API key missing required scope: goals:write' } });
});

test('7. an unknown site beats a bad body', async () => {
  expect(await badGoal(fx.a.key, fx.a.orgId, NO_SITE)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
  expect(await badGoal(fx.a.key, fx.a.orgId, fx.b.site.id)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
  expect(await badGoal(fx.a.token, fx.a.orgId, fx.b.site.public_id)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
});

test('8. a bad body comes last, and carries the rate-limit headers', async () => {
  const malformed = await badGoal(fx.a.key, fx.a.orgId, fx.a.site.id);
  expect(malformed.status).toBe(400);
  expect(Object.keys(malformed.body)).toEqual(['error']);
  expect(malformed.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  const invalid = await fx.a.api.post(goals(fx.a.orgId, fx.a.site.id), { name: 42 }, fx.a.key);
  expect(invalid.status).toBe(400);
  expect(invalid.body.error).toContain('name');
  expect(invalid.headers.get('x-ratelimit-limit')).toBe('600');
});

test('an unknown goal beats even a malformed body, with the ids upper-cased too', async () => {
  const upper = (id: string) => id.toUpperCase();
  for (const p of [`${goals(fx.a.orgId, fx.a.site.id)}/${NO_SITE}`, `${goals(upper(fx.a.orgId), upper(fx.a.site.id))}/${NO_SITE}`]) {
    const r = await fx.a.api.call('PATCH', p, { token: fx.a.key, raw: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(r).toMatchObject({ status: 404, body: { error: 'Goal not found' } });
  }
});

test('session-only endpoints: an API key gets 403, a bad session 401, both before the body', async () => {
  const keys = `/api/v1/organizations/${fx.a.orgId}/api-keys`;
  const junk = { raw: '{"name": ', headers: { 'content-type': 'application/json' } };
  expect(await fx.a.api.call('POST', keys, { token: fx.a.key, ...junk })).toMatchObject({ status: 403, body: { error: 'API keys cannot access this endpoint' } });
  expect(await fx.a.api.call('POST', keys, { token: 'ses_nope', ...junk })).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
  expect(await fx.a.api.call('POST', keys, { ...junk })).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
  expect(await fx.a.api.call('POST', `/api/v1/organizations/${fx.b.orgId}/api-keys`, { token: fx.a.token, ...junk })).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
});

test('data endpoints: an ended session token answers as a session, not as a key', async () => {
  const c = await setupAccount(fx.srv.url);
  await c.api.post('/api/v1/auth/logout', undefined, c.token);
  expect(await c.api.get(`/api/v1/organizations/${c.orgId}/sites`, c.token)).toMatchObject({ status: 401, body: { error: 'Invalid or expired session' } });
});
