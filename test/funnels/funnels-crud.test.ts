// Funnel definitions over HTTP: create, list, update, delete, step validation, scopes and 404s across sites.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

const fx = withServer();

const steps = [{ type: 'pageview', value: '/pricing' }, { type: 'event', value: 'Signup', label: 'Signed up' }];

test('create, list, update, delete', async () => {
  const { api, key, orgId, site } = await setupAccount(fx.srv.url, { scopes: ['funnels:read', 'funnels:write'] });
  const base = `/api/v1/organizations/${orgId}/sites/${site.id}/funnels`;
  const f = await api.post(base, { name: 'Signup', steps }, key);
  expect(f.status).toBe(201);
  expect(f.body.data).toMatchObject({ name: 'Signup', steps, window: 'session' });
  expect(f.body.data.created_at).toMatch(/Z$/);
  expect((await api.get(base, key)).body.data.funnels).toEqual([f.body.data]);
  const p = await api.patch(`${base}/${f.body.data.id}`, { window: '7d', name: 'Signup (week)' }, key);
  expect(p.body.data).toMatchObject({ id: f.body.data.id, name: 'Signup (week)', window: '7d', steps });
  const three = [...steps, { type: 'event', value: 'Purchase' }];
  expect((await api.patch(`${base}/${f.body.data.id}`, { steps: three }, key)).body.data.steps).toEqual(three);
  expect(await api.del(`${base}/${f.body.data.id}`, key)).toMatchObject({ status: 200, body: { data: { id: f.body.data.id } } });
  expect(await api.del(`${base}/${f.body.data.id}`, key)).toMatchObject({ status: 404, body: { error: 'Funnel not found' } });
  expect((await api.get(base, key)).body.data.funnels).toEqual([]);
});

test('validation: 2–8 steps, known window and step type, goal steps name a goal of the site', async () => {
  const { api, key, orgId, site } = await setupAccount(fx.srv.url, { scopes: ['funnels:read', 'funnels:write', 'goals:write'] });
  const base = `/api/v1/organizations/${orgId}/sites/${site.id}/funnels`;
  const step = { type: 'pageview', value: '/a' };
  expect((await api.post(base, { name: 'x', steps: [step] }, key)).status).toBe(400);
  expect((await api.post(base, { name: 'x', steps: Array(9).fill(step) }, key)).status).toBe(400);
  expect((await api.post(base, { name: 'x', steps: Array(8).fill(step) }, key)).status).toBe(201);
  expect((await api.post(base, { name: 'x', steps, window: '2h' }, key)).status).toBe(400);
  expect((await api.post(base, { name: 'x', steps: [step, { type: 'click', value: 'a' }] }, key)).status).toBe(400);
  expect((await api.post(base, { name: 'x', steps: [step, { type: 'pageview', value: 'no-slash' }] }, key)).status).toBe(400);
  const unknownGoal = await api.post(base, { name: 'x', steps: [step, { type: 'goal', value: crypto.randomUUID() }] }, key);
  expect(unknownGoal.status).toBe(400);
  expect(unknownGoal.body.error).toContain('steps.1.value');
  const goal = await api.post(`/api/v1/organizations/${orgId}/sites/${site.id}/goals`, { name: 'g', type: 'event', event_name: 'g' }, key);
  expect((await api.post(base, { name: 'x', steps: [step, { type: 'goal', value: goal.body.data.id }] }, key)).status).toBe(201);
  expect((await api.post(base, { steps }, key)).status).toBe(400);
});

test('scopes per route and 404 for another site\'s funnel', async () => {
  const a = await setupAccount(fx.srv.url, { scopes: ['funnels:write'] });
  const base = `/api/v1/organizations/${a.orgId}/sites/${a.site.id}/funnels`;
  const f = (await a.api.post(base, { name: 'F', steps }, a.key)).body.data;
  const readKey = (await a.api.post(`/api/v1/organizations/${a.orgId}/api-keys`, { name: 'r', scopes: ['funnels:read'] }, a.token)).body.data.key;
  const missingRead = { status: 403, body: { error: 'API key missing required scope: funnels:read' } };
  const missingWrite = { status: 403, body: { error: 'API key missing required scope: funnels:write' } };
  expect(await a.api.get(base, a.key)).toMatchObject(missingRead);
  expect(await a.api.get(`${base}/${f.id}/analysis`, a.key)).toMatchObject(missingRead);
  expect(await a.api.post(base, { name: 'G', steps }, readKey)).toMatchObject(missingWrite);
  expect(await a.api.patch(`${base}/${f.id}`, { name: 'G' }, readKey)).toMatchObject(missingWrite);
  expect(await a.api.del(`${base}/${f.id}`, readKey)).toMatchObject(missingWrite);
  expect((await a.api.get(`${base}/${f.id}/analysis`, readKey)).status).toBe(200);

  const other = await a.api.post(`/api/v1/organizations/${a.orgId}/sites`, { domain: 'other.example' }, a.token);
  const otherBase = `/api/v1/organizations/${a.orgId}/sites/${other.body.data.id}/funnels`;
  const notFound = { status: 404, body: { error: 'Funnel not found' } };
  expect(await a.api.get(`${otherBase}/${f.id}/analysis`, readKey)).toMatchObject(notFound);
  expect(await a.api.patch(`${otherBase}/${f.id}`, { name: 'x' }, a.key)).toMatchObject(notFound);
  expect(await a.api.del(`${otherBase}/nope`, a.key)).toMatchObject(notFound);
  expect(await a.api.patch(`${otherBase}/${f.id}`, { steps: [] }, a.key)).toMatchObject(notFound);
  expect(await a.api.get(`${otherBase}/${f.id}/analysis?period=bogus`, readKey)).toMatchObject(notFound);
  expect((await a.api.get(`${base}/${f.id}/analysis?period=bogus`, readKey)).status).toBe(400);
});
