// API key lifecycle over HTTP (spec §2.1, §3.1; contract §4): create, list masked, use, revoke, limits, validation.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount, type Res } from '../helpers/api.ts';

/** Every response body seen after the keys were created: none may contain a full key. */
const seen: string[] = [];
const issued: string[] = [];

const keysPath = () => `/api/v1/organizations/${fx.acct.orgId}/api-keys`;
const sitesPath = () => `/api/v1/organizations/${fx.acct.orgId}/sites`;
const record = <T extends Res>(r: T) => (seen.push(r.text), r);
const create = async (body: unknown) => {
  const r = await fx.acct.api.post(keysPath(), body, fx.acct.token);
  if (r.status === 201) issued.push(r.body.data.key);
  return r;
};
const list = async () => record(await fx.acct.api.get(keysPath(), fx.acct.token));
const useKey = async (key: string) => record(await fx.acct.api.get(sitesPath(), key));

const fx = withServer({ accounts: { acct: {} } });

describe('create', () => {
  test('201 with the full key once, in the documented shape', async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const r = await create({ name: 'CI dashboard', scopes: ['sites:read', 'analytics:read'], expires_at: expires });
    expect(r.status).toBe(201);
    const k = r.body.data;
    expect(Object.keys(k).sort()).toEqual(['created_at', 'expires_at', 'id', 'key', 'key_preview', 'name', 'scopes']);
    expect(k.key).toMatch(/^sk_live_[0-9a-f]{32}$/);
    expect(k.key_preview).toBe(`****${k.key.slice(-4)}`);
    expect(k.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(k.name).toBe('CI dashboard');
    expect(k.scopes.sort()).toEqual(['analytics:read', 'sites:read']);
    expect(k.expires_at).toBe(expires);
    expect(k.created_at).toMatch(/Z$/);
  });

  test('keys are random: two creations never share a secret', async () => {
    const a = await create({ name: 'a', scopes: ['sites:read'] });
    const b = await create({ name: 'b', scopes: ['sites:read'] });
    expect(a.body.data.key).not.toBe(b.body.data.key);
    expect(a.body.data.expires_at).toBeNull();
    const explicit = await create({ name: 'c', scopes: ['sites:read'], expires_at: null });
    expect(explicit.status).toBe(201);
    expect(explicit.body.data.expires_at).toBeNull();
  });

  test.each([
    ['unknown scope', { name: 'x', scopes: ['sites:write'] }, 'scopes'],
    ['empty scopes', { name: 'x', scopes: [] }, 'scopes'],
    ['missing scopes', { name: 'x' }, 'scopes'],
    ['missing name', { scopes: ['sites:read'] }, 'name'],
    ['empty name', { name: '', scopes: ['sites:read'] }, 'name'],
    ['expires_at in the past', { name: 'x', scopes: ['sites:read'], expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    ['expires_at not a timestamp', { name: 'x', scopes: ['sites:read'], expires_at: 'tomorrow' }, 'expires_at'],
  ])('400 for %s, naming the field', async (_, body, field) => {
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toContain(field);
  });

  test('400 for a malformed JSON body', async () => {
    const r = await fx.acct.api.call('POST', keysPath(), { token: fx.acct.token, raw: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
  });
});

describe('list, use, revoke', () => {
  test('list shows masked previews, status and last use, never the key', async () => {
    const created = await create({ name: 'listed', scopes: ['sites:read'] });
    const key: string = created.body.data.key;
    const before = (await list()).body.data.api_keys.find((k: any) => k.id === created.body.data.id);
    expect(before).toMatchObject({ name: 'listed', scopes: ['sites:read'], key_preview: `****${key.slice(-4)}`, status: 'active', last_used_at: null, expires_at: null });
    expect(Object.keys(before).sort()).toEqual(['created_at', 'expires_at', 'id', 'key_preview', 'last_used_at', 'name', 'scopes', 'status']);
    expect((await useKey(key)).status).toBe(200);
    const after = (await list()).body.data.api_keys.find((k: any) => k.id === created.body.data.id);
    expect(after.last_used_at).toMatch(/Z$/);
    expect(Date.parse(after.last_used_at)).toBeGreaterThanOrEqual(Date.parse(after.created_at));
  });

  test('last use of several keys used in one interval is recorded for each', async () => {
    const made = [await create({ name: 'used a', scopes: ['sites:read'] }), await create({ name: 'used b', scopes: ['sites:read'] })];
    for (const c of made) expect((await useKey(c.body.data.key)).status).toBe(200);
    const listed = (await list()).body.data.api_keys;
    for (const c of made) expect(listed.find((k: any) => k.id === c.body.data.id).last_used_at).toMatch(/Z$/);
  });

  test('revoke answers {id, status: revoked}, works on the very next request, and hides the key from the list', async () => {
    const created = await create({ name: 'to revoke', scopes: ['sites:read'] });
    const { key, id } = created.body.data;
    expect((await useKey(key)).status).toBe(200); // now cached in the server, if it caches
    const r = record(await fx.acct.api.del(`${keysPath()}/${id}`, fx.acct.token));
    expect(r).toMatchObject({ status: 200, body: { success: true, data: { id, status: 'revoked' } } });
    expect(await useKey(key)).toMatchObject({ status: 401, body: { error: 'Invalid or expired API key' } });
    expect((await list()).body.data.api_keys.map((k: any) => k.id)).not.toContain(id);
    expect(await fx.acct.api.del(`${keysPath()}/${id}`, fx.acct.token)).toMatchObject({ status: 404, body: { error: 'API key not found' } });
  });

  test('unknown key ids answer 404 API key not found', async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      expect(await fx.acct.api.del(`${keysPath()}/${id}`, fx.acct.token)).toMatchObject({ status: 404, body: { error: 'API key not found' } });
    }
  });

  test('a well-formed key that was never issued answers 401', async () => {
    expect(await useKey(`sk_live_${'0'.repeat(32)}`)).toMatchObject({ status: 401, body: { error: 'Invalid or expired API key' } });
  });
});

test('a key that expires during the test: works, then 401, then listed as expired', async () => {
  const expires = new Date(Date.now() + 3_000).toISOString();
  const created = await create({ name: 'short-lived', scopes: ['sites:read'], expires_at: expires });
  expect(created.status).toBe(201);
  expect((await useKey(created.body.data.key)).status).toBe(200);
  await Bun.sleep(Date.parse(expires) - Date.now() + 300);
  expect(await useKey(created.body.data.key)).toMatchObject({ status: 401, body: { error: 'Invalid or expired API key' } });
  const listed = (await list()).body.data.api_keys.find((k: any) => k.id === created.body.data.id);
  expect(listed).toMatchObject({ status: 'expired', expires_at: expires });
}, 10_000);

test('the 10-key limit counts active keys: the 11th is refused, revoking one frees a slot', async () => {
  const active = (await list()).body.data.api_keys.filter((k: any) => k.status === 'active');
  for (let i = active.length; i < 10; i++) expect((await create({ name: `fill ${i}`, scopes: ['sites:read'] })).status).toBe(201);
  const eleventh = await create({ name: 'eleventh', scopes: ['sites:read'] });
  expect(eleventh).toMatchObject({ status: 400, body: { error: 'API key limit reached: at most 10 keys per organization' } });
  const victim = (await list()).body.data.api_keys.find((k: any) => k.status === 'active');
  expect((await fx.acct.api.del(`${keysPath()}/${victim.id}`, fx.acct.token)).status).toBe(200);
  expect((await create({ name: 'replacement', scopes: ['sites:read'] })).status).toBe(201);
});

test('no full key appears in any later response or in any log line', async () => {
  await Bun.sleep(100); // let the server's stderr reach the pipe
  expect(issued.length).toBeGreaterThan(10);
  const logs = fx.srv.logs();
  for (const key of issued) {
    for (const body of seen) expect(body).not.toContain(key);
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(key.slice('sk_live_'.length));
  }
});
