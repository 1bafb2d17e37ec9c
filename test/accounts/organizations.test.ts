// Organizations (contract §3): list, create, patch name and plan; only members see them.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';


const fx = withServer({ server: { env: { DEFAULT_PLAN: 'agency' } }, accounts: { acct: {} } });

test('the first organization comes with registration, on DEFAULT_PLAN', async () => {
  const r = await fx.acct.api.get('/api/v1/organizations', fx.acct.token);
  expect(r.status).toBe(200);
  expect(r.body.data.organizations).toHaveLength(1);
  expect(r.body.data.organizations[0]).toMatchObject({ id: fx.acct.orgId, plan: 'agency' });
});

test('create: 201, the caller owns it, plan defaults to DEFAULT_PLAN', async () => {
  const r = await fx.acct.api.post('/api/v1/organizations', { name: '  Acme  ' }, fx.acct.token);
  expect(r.status).toBe(201);
  expect(Object.keys(r.body.data).sort()).toEqual(['created_at', 'id', 'name', 'plan']);
  expect(r.body.data).toMatchObject({ name: 'Acme', plan: 'agency' });
  const me = await fx.acct.api.get('/api/v1/auth/me', fx.acct.token);
  expect(me.body.data.organizations).toContainEqual({ id: r.body.data.id, name: 'Acme', plan: 'agency', role: 'owner' });
  const listed = await fx.acct.api.get('/api/v1/organizations', fx.acct.token);
  expect(listed.body.data.organizations.map((o: any) => o.id)).toEqual([fx.acct.orgId, r.body.data.id]);
});

test('create: 400 for a missing or empty name or an unknown plan', async () => {
  for (const [body, field] of [[{}, 'name'], [{ name: ' ' }, 'name'], [{ name: 'X', plan: 'gold' }, 'plan']] as const) {
    const r = await fx.acct.api.post('/api/v1/organizations', body, fx.acct.token);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain(field);
  }
});

test('get: one organization the caller belongs to', async () => {
  const r = await fx.acct.api.get(`/api/v1/organizations/${fx.acct.orgId}`, fx.acct.token);
  expect(r.status).toBe(200);
  expect(r.body.data).toMatchObject({ id: fx.acct.orgId, plan: 'agency' });
  expect(Object.keys(r.body.data).sort()).toEqual(['created_at', 'id', 'name', 'plan']);
});

test('patch: name and plan, each alone or together', async () => {
  const path = `/api/v1/organizations/${fx.acct.orgId}`;
  expect((await fx.acct.api.patch(path, { name: 'Renamed' }, fx.acct.token)).body.data).toMatchObject({ id: fx.acct.orgId, name: 'Renamed', plan: 'agency' });
  expect((await fx.acct.api.patch(path, { plan: 'startup' }, fx.acct.token)).body.data).toMatchObject({ name: 'Renamed', plan: 'startup' });
  const both = await fx.acct.api.patch(path, { name: 'Both', plan: 'maker' }, fx.acct.token);
  expect(both).toMatchObject({ status: 200, body: { success: true, data: { id: fx.acct.orgId, name: 'Both', plan: 'maker' } } });
  expect((await fx.acct.api.patch(path, {}, fx.acct.token)).body.data.name).toBe('Both');
});

test("another user's organization is a 404, whatever the ID looks like", async () => {
  const other = await setupAccount(fx.srv.url);
  for (const id of [other.orgId, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
    expect(await fx.acct.api.get(`/api/v1/organizations/${id}`, fx.acct.token)).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    expect(await fx.acct.api.patch(`/api/v1/organizations/${id}`, { name: 'Mine now' }, fx.acct.token)).toMatchObject({
      status: 404,
      body: { error: 'Organization not found' },
    });
  }
  const listed = await fx.acct.api.get('/api/v1/organizations', fx.acct.token);
  expect(listed.body.data.organizations.map((o: any) => o.id)).not.toContain(other.orgId);
  expect((await other.api.get('/api/v1/organizations', other.token)).body.data.organizations[0].name).not.toBe('Mine now');
});
