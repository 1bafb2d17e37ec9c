// Goal definitions over HTTP: create, list, update, archive, validation naming the field, 404s and per-route scopes.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

const fx = withServer();

test('create, list, update, archive, unarchive', async () => {
  const { api, key, orgId, site } = await setupAccount(fx.srv.url, { scopes: ['goals:read', 'goals:write'] });
  const base = `/api/v1/organizations/${orgId}/sites/${site.id}/goals`;
  const signup = await api.post(base, { name: 'Signup', type: 'pageview', path: '/signup/*' }, key);
  expect(signup.status).toBe(201);
  expect(signup.body.data).toMatchObject({ name: 'Signup', type: 'pageview', path: '/signup/*', archived: false });
  expect(signup.body.data).not.toHaveProperty('event_name');
  expect(signup.body.data).not.toHaveProperty('value');
  const buy = await api.post(base, { name: 'Buy', type: 'event', event_name: 'purchase', value: 5 }, key);
  expect(buy.body.data).toMatchObject({ type: 'event', event_name: 'purchase', value: 5 });

  const patched = await api.patch(`${base}/${buy.body.data.id}`, { name: 'Purchase', value: 7.5 }, key);
  expect(patched.body.data).toMatchObject({ id: buy.body.data.id, name: 'Purchase', event_name: 'purchase', value: 7.5 });
  const cleared = await api.patch(`${base}/${buy.body.data.id}`, { value: null }, key);
  expect(cleared.body.data).not.toHaveProperty('value');
  expect((await api.patch(`${base}/${signup.body.data.id}`, { path: '/join/**' }, key)).body.data.path).toBe('/join/**');

  const archived = await api.post(`${base}/${signup.body.data.id}/archive`, undefined, key);
  expect(archived).toMatchObject({ status: 200, body: { data: { id: signup.body.data.id, archived: true } } });
  // The archive answer is the whole goal as the list shows it.
  expect(archived.body.data).toEqual({ ...signup.body.data, path: '/join/**', archived: true });
  expect((await api.get(base, key)).body.data.goals.map((g: any) => g.name)).toEqual(['Purchase']);
  expect((await api.get(`${base}?include_archived=true`, key)).body.data.goals.map((g: any) => g.name)).toEqual(['Signup', 'Purchase']);
  expect((await api.post(`${base}/${signup.body.data.id}/unarchive`, undefined, key)).body.data.archived).toBe(false);
  expect((await api.get(base, key)).body.data.goals).toHaveLength(2);
});

test('validation names the offending field', async () => {
  const { api, key, orgId, site } = await setupAccount(fx.srv.url, { scopes: ['goals:read', 'goals:write'] });
  const base = `/api/v1/organizations/${orgId}/sites/${site.id}/goals`;
  const noPath = await api.post(base, { name: 'x', type: 'pageview' }, key);
  expect(noPath.status).toBe(400);
  expect(noPath.body.error).toContain('path');
  const noEvent = await api.post(base, { name: 'x', type: 'event' }, key);
  expect(noEvent.status).toBe(400);
  expect(noEvent.body.error).toContain('event_name');
  expect((await api.post(base, { name: 'x', type: 'visit', path: '/' }, key)).status).toBe(400);
  expect((await api.post(base, { name: 'x', type: 'pageview', path: 'no-slash' }, key)).status).toBe(400);
  expect((await api.post(base, { name: 'x', type: 'event', event_name: 'e', value: -1 }, key)).status).toBe(400);
  expect((await api.post(base, { name: '', type: 'event', event_name: 'e' }, key)).status).toBe(400);
  const ev = await api.post(base, { name: 'e', type: 'event', event_name: 'e' }, key);
  const wrongField = await api.patch(`${base}/${ev.body.data.id}`, { path: '/a' }, key);
  expect(wrongField.status).toBe(400);
  expect(wrongField.body.error).toContain('path');
  expect((await api.get(`${base}?include_archived=maybe`, key)).status).toBe(400);
});

test('unknown goal → 404 Goal not found, also across sites', async () => {
  const a = await setupAccount(fx.srv.url, { scopes: ['goals:read', 'goals:write'] });
  const b = await setupAccount(fx.srv.url, { scopes: ['goals:read', 'goals:write'] });
  const baseA = `/api/v1/organizations/${a.orgId}/sites/${a.site.id}/goals`;
  const baseB = `/api/v1/organizations/${b.orgId}/sites/${b.site.id}/goals`;
  const g = await a.api.post(baseA, { name: 'x', type: 'event', event_name: 'x' }, a.key);
  for (const res of [
    await b.api.patch(`${baseB}/${g.body.data.id}`, { name: 'y' }, b.key),
    await b.api.post(`${baseB}/${g.body.data.id}/archive`, undefined, b.key),
    await b.api.post(`${baseB}/${crypto.randomUUID()}/unarchive`, undefined, b.key),
    await b.api.get(`${baseB}/${g.body.data.id}/stats`, b.key),
    await b.api.get(`${baseB}/not-a-uuid/completions`, b.key),
    // the missing goal answers before the invalid body or query (contract §4 order)
    await b.api.patch(`${baseB}/${g.body.data.id}`, { name: '' }, b.key),
    await b.api.get(`${baseB}/${g.body.data.id}/completions?limit=101`, b.key),
    await b.api.get(`${baseB}/${g.body.data.id}/stats?interval=year`, b.key),
  ]) expect(res).toMatchObject({ status: 404, body: { error: 'Goal not found' } });
  // …and after the scope check
  const readOnly = (await b.api.post(`/api/v1/organizations/${b.orgId}/api-keys`, { name: 'r', scopes: ['goals:read'] }, b.token)).body.data.key;
  expect(await b.api.patch(`${baseB}/${crypto.randomUUID()}`, { name: '' }, readOnly)).toMatchObject({ status: 403, body: { error: 'API key missing required scope: goals:write' } });
});

test('scopes: every goal route needs its own scope', async () => {
  const owner = await setupAccount(fx.srv.url, { scopes: ['goals:write'] });
  const base = `/api/v1/organizations/${owner.orgId}/sites/${owner.site.id}/goals`;
  const g = (await owner.api.post(base, { name: 'x', type: 'event', event_name: 'x' }, owner.token)).body.data;
  const readKey = (await owner.api.post(`/api/v1/organizations/${owner.orgId}/api-keys`, { name: 'r', scopes: ['goals:read'] }, owner.token)).body.data.key;
  const missingRead = { status: 403, body: { error: 'API key missing required scope: goals:read' } };
  const missingWrite = { status: 403, body: { error: 'API key missing required scope: goals:write' } };
  expect(await owner.api.get(base, owner.key)).toMatchObject(missingRead);
  expect(await owner.api.get(`${base}/stats`, owner.key)).toMatchObject(missingRead);
  expect(await owner.api.get(`${base}/${g.id}/stats`, owner.key)).toMatchObject(missingRead);
  expect(await owner.api.get(`${base}/${g.id}/completions`, owner.key)).toMatchObject(missingRead);
  expect(await owner.api.post(base, { name: 'y', type: 'event', event_name: 'y' }, readKey)).toMatchObject(missingWrite);
  expect(await owner.api.patch(`${base}/${g.id}`, { name: 'y' }, readKey)).toMatchObject(missingWrite);
  expect(await owner.api.post(`${base}/${g.id}/archive`, undefined, readKey)).toMatchObject(missingWrite);
  expect(await owner.api.post(`${base}/${g.id}/unarchive`, undefined, readKey)).toMatchObject(missingWrite);
  expect((await owner.api.get(base, readKey)).status).toBe(200);
  expect((await owner.api.post(`${base}/${g.id}/archive`, undefined, owner.key)).status).toBe(200);
});
