// Chart annotations over HTTP: create, list by date range, delete, validation, and the read/write scopes apart.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

const fx = withServer();

test('create, list by range, delete; 404 for unknown ids', async () => {
  const { api, key, orgId, site } = await setupAccount(fx.srv.url, { scopes: ['annotations:read', 'annotations:write'] });
  const base = `/api/v1/organizations/${orgId}/sites/${site.id}/annotations`;
  const a = await api.post(base, { date: '2026-03-02', text: 'Launched pricing page' }, key);
  expect(a.status).toBe(201);
  expect(a.body.data).toMatchObject({ date: '2026-03-02', text: 'Launched pricing page' });
  expect(a.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(a.body.data.created_at).toMatch(/Z$/);
  await api.post(base, { date: '2026-03-10', text: 'Newsletter' }, key);
  await api.post(base, { date: '2026-02-20', text: 'Older' }, key);

  const all = await api.get(base, key);
  expect(all.body.data.annotations.map((x: any) => x.date)).toEqual(['2026-02-20', '2026-03-02', '2026-03-10']);
  const march = await api.get(`${base}?from=2026-03-01&to=2026-03-09`, key);
  expect(march.body.data.annotations.map((x: any) => x.text)).toEqual(['Launched pricing page']);
  expect((await api.get(`${base}?from=2026-03-05`, key)).body.data.annotations.map((x: any) => x.text)).toEqual(['Newsletter']);
  expect((await api.get(`${base}?to=2026-02-28`, key)).body.data.annotations.map((x: any) => x.text)).toEqual(['Older']);

  expect(await api.del(`${base}/${a.body.data.id}`, key)).toMatchObject({ status: 200, body: { data: { id: a.body.data.id } } });
  expect(await api.del(`${base}/${a.body.data.id}`, key)).toMatchObject({ status: 404, body: { error: 'Annotation not found' } });
  expect(await api.del(`${base}/not-a-uuid`, key)).toMatchObject({ status: 404, body: { error: 'Annotation not found' } });
  expect((await api.get(base, key)).body.data.annotations).toHaveLength(2);
});

test('validation: text 1–500 chars, real date, from ≤ to', async () => {
  const { api, key, orgId, site } = await setupAccount(fx.srv.url, { scopes: ['annotations:read', 'annotations:write'] });
  const base = `/api/v1/organizations/${orgId}/sites/${site.id}/annotations`;
  expect((await api.post(base, { date: '2026-03-02', text: '' }, key)).status).toBe(400);
  expect((await api.post(base, { date: '2026-03-02', text: 'x'.repeat(501) }, key)).status).toBe(400);
  expect((await api.post(base, { date: '2026-03-02', text: 'x'.repeat(500) }, key)).status).toBe(201);
  expect((await api.post(base, { date: '2026-02-30', text: 'bad day' }, key)).status).toBe(400);
  expect((await api.post(base, { text: 'no date' }, key)).status).toBe(400);
  const bad = await api.get(`${base}?from=2026-03-10&to=2026-03-01`, key);
  expect(bad.status).toBe(400);
  expect(bad.body.error).toContain('from');
});

test('scopes: write does not imply read and read does not allow writing', async () => {
  const reader = await setupAccount(fx.srv.url, { scopes: ['annotations:read'] });
  const base = `/api/v1/organizations/${reader.orgId}/sites/${reader.site.id}/annotations`;
  const created = await reader.api.post(base, { date: '2026-01-01', text: 'by session' }, reader.token);
  expect(created.status).toBe(201);
  expect(await reader.api.post(base, { date: '2026-01-01', text: 'x' }, reader.key)).toMatchObject({ status: 403, body: { error: 'API key missing required scope: annotations:write' } });
  expect(await reader.api.del(`${base}/${created.body.data.id}`, reader.key)).toMatchObject({ status: 403, body: { error: 'API key missing required scope: annotations:write' } });
  const writerKey = (await reader.api.post(`/api/v1/organizations/${reader.orgId}/api-keys`, { name: 'w', scopes: ['annotations:write'] }, reader.token)).body.data.key;
  expect(await reader.api.get(base, writerKey)).toMatchObject({ status: 403, body: { error: 'API key missing required scope: annotations:read' } });
  expect((await reader.api.get(base, reader.key)).status).toBe(200);
});

test("another site's annotation is not found; deleting the site deletes its annotations", async () => {
  const a = await setupAccount(fx.srv.url, { scopes: ['annotations:read', 'annotations:write'] });
  const other = await a.api.post(`/api/v1/organizations/${a.orgId}/sites`, { domain: 'other.example' }, a.token);
  const baseA = `/api/v1/organizations/${a.orgId}/sites/${a.site.id}/annotations`;
  const baseB = `/api/v1/organizations/${a.orgId}/sites/${other.body.data.id}/annotations`;
  const note = await a.api.post(baseA, { date: '2026-01-01', text: 'site A' }, a.key);
  expect(await a.api.del(`${baseB}/${note.body.data.id}`, a.key)).toMatchObject({ status: 404, body: { error: 'Annotation not found' } });
  await a.api.post(baseB, { date: '2026-01-01', text: 'site B' }, a.key);
  expect((await a.api.del(`/api/v1/organizations/${a.orgId}/sites/${other.body.data.id}`, a.token)).status).toBe(200);
  expect(await a.api.get(baseB, a.key)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
  expect((await a.api.get(baseA, a.key)).body.data.annotations).toHaveLength(1);
});
