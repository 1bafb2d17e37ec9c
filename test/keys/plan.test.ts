// Plan requirement (spec §5.4): Maker organizations get 402 when creating a key and when using one.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

const PAYMENT = { error: 'API key access requires a Startup plan or higher' };


const fx = withServer({ accounts: { acct: { scopes: ['sites:read'] } } });

const org = (id = fx.acct.orgId) => `/api/v1/organizations/${id}`;
const setPlan = (plan: string) => fx.acct.api.patch(org(), { plan }, fx.acct.token);

test('a Maker organization cannot create a key', async () => {
  const maker = await fx.acct.api.post('/api/v1/organizations', { name: 'Side project', plan: 'maker' }, fx.acct.token);
  expect(maker.status).toBe(201);
  expect(maker.body.data.plan).toBe('maker');
  const r = await fx.acct.api.post(`${org(maker.body.data.id)}/api-keys`, { name: 'k', scopes: ['sites:read'] }, fx.acct.token);
  expect(r).toMatchObject({ status: 402, body: PAYMENT });
  expect(Object.keys(r.body)).toEqual(['error']);
});

test('downgrade to Maker → 402 on an existing key at once; upgrade → it works again', async () => {
  expect((await fx.acct.api.get(`${org()}/sites`, fx.acct.key)).status).toBe(200);
  expect((await setPlan('maker')).body.data.plan).toBe('maker');
  const r = await fx.acct.api.get(`${org()}/sites`, fx.acct.key);
  expect(r).toMatchObject({ status: 402, body: PAYMENT });
  // 402 comes before the rate-limit step, so it is not a rate-limited response.
  expect(r.headers.get('x-ratelimit-limit')).toBeNull();
  // Sessions are not API key access: the member still reads the data.
  expect((await fx.acct.api.get(`${org()}/sites`, fx.acct.token)).status).toBe(200);
  expect((await setPlan('agency')).status).toBe(200);
  expect((await fx.acct.api.get(`${org()}/sites`, fx.acct.key)).status).toBe(200);
  expect((await setPlan('startup')).status).toBe(200);
  expect((await fx.acct.api.get(`${org()}/sites`, fx.acct.key)).status).toBe(200);
});

test('a Maker organization cannot create a key, but can still list and revoke them', async () => {
  await setPlan('maker');
  expect(await fx.acct.api.post(`${org()}/api-keys`, { name: 'k2', scopes: ['sites:read'] }, fx.acct.token)).toMatchObject({ status: 402, body: PAYMENT });
  const listed = await fx.acct.api.get(`${org()}/api-keys`, fx.acct.token);
  expect(listed.status).toBe(200);
  expect(listed.body.data.api_keys).toHaveLength(1);
  const id = listed.body.data.api_keys[0].id;
  expect((await fx.acct.api.del(`${org()}/api-keys/${id}`, fx.acct.token)).body.data).toEqual({ id, status: 'revoked' });
  await setPlan('startup');
  expect(await fx.acct.api.get(`${org()}/sites`, fx.acct.key)).toMatchObject({ status: 401, body: { error: 'Invalid or expired API key' } });
});

test('an unknown plan is a 400 naming the field', async () => {
  const r = await setPlan('enterprise');
  expect(r.status).toBe(400);
  expect(r.body.error).toContain('plan');
});
