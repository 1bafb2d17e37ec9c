// Tenancy (contract §3, §4): org A's session and key against org B's IDs always get 404 and change nothing.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

let a: Awaited<ReturnType<typeof setupAccount>>;
let b: Awaited<ReturnType<typeof setupAccount>>;
let bKeyId: string;

const ORG = { error: 'Organization not found' };
const SITE = { error: 'Site not found' };

const fx = withServer();
beforeAll(async () => {
  const all = ['analytics:read', 'sites:read', 'goals:read', 'goals:write', 'funnels:read', 'funnels:write', 'annotations:read', 'annotations:write', 'visitors:read'];
  a = await setupAccount(fx.srv.url, { scopes: all });
  b = await setupAccount(fx.srv.url, { scopes: ['sites:read'] });
  bKeyId = (await b.api.get(`/api/v1/organizations/${b.orgId}/api-keys`, b.token)).body.data.api_keys[0].id;
});

test("A's session on B's organization: 404 Organization not found everywhere", async () => {
  const org = `/api/v1/organizations/${b.orgId}`;
  const calls: [string, string, unknown?][] = [
    ['PATCH', org, { name: 'owned' }],
    ['GET', `${org}/sites`],
    ['POST', `${org}/sites`, { domain: 'evil.example.com' }],
    ['GET', `${org}/sites/${b.site.id}`],
    ['PATCH', `${org}/sites/${b.site.id}`, { name: 'owned' }],
    ['DELETE', `${org}/sites/${b.site.id}`],
    ['GET', `${org}/api-keys`],
    ['POST', `${org}/api-keys`, { name: 'steal', scopes: ['sites:read'] }],
    ['DELETE', `${org}/api-keys/${bKeyId}`],
    ['GET', `${org}/sites/${b.site.id}/goals`],
  ];
  for (const [method, path, body] of calls) {
    expect(await a.api.call(method, path, { token: a.token, body })).toMatchObject({ status: 404, body: ORG });
  }
});

test("A's key on B's organization: 404 Organization not found, even with every scope", async () => {
  const org = `/api/v1/organizations/${b.orgId}`;
  for (const path of [`${org}/sites`, `${org}/sites/${b.site.id}`, `${org}/sites/${b.site.public_id}`, `${org}/sites/${b.site.id}/goals`]) {
    expect(await a.api.get(path, a.key)).toMatchObject({ status: 404, body: ORG });
  }
});

test("A's own organization with B's site: 404 Site not found, by id or public id", async () => {
  const org = `/api/v1/organizations/${a.orgId}`;
  for (const site of [b.site.id, b.site.public_id]) {
    expect(await a.api.get(`${org}/sites/${site}`, a.key)).toMatchObject({ status: 404, body: SITE });
    expect(await a.api.get(`${org}/sites/${site}`, a.token)).toMatchObject({ status: 404, body: SITE });
    expect(await a.api.patch(`${org}/sites/${site}`, { name: 'owned' }, a.token)).toMatchObject({ status: 404, body: SITE });
    expect(await a.api.del(`${org}/sites/${site}`, a.token)).toMatchObject({ status: 404, body: SITE });
    expect(await a.api.get(`${org}/sites/${site}/goals`, a.key)).toMatchObject({ status: 404, body: SITE });
  }
});

test("A's own organization with B's key id: 404 API key not found", async () => {
  const r = await a.api.del(`/api/v1/organizations/${a.orgId}/api-keys/${bKeyId}`, a.token);
  expect(r).toMatchObject({ status: 404, body: { error: 'API key not found' } });
});

test('B is untouched: its site, name, key and data are as before', async () => {
  const site = await b.api.get(`/api/v1/organizations/${b.orgId}/sites/${b.site.id}`, b.key);
  expect(site.status).toBe(200);
  expect(site.body.data.name).toBe('example.com');
  const sites = await b.api.get(`/api/v1/organizations/${b.orgId}/sites`, b.token);
  expect(sites.body.data.sites).toHaveLength(1);
  const keys = await b.api.get(`/api/v1/organizations/${b.orgId}/api-keys`, b.token);
  expect(keys.body.data.api_keys.map((k: any) => k.id)).toEqual([bKeyId]);
  const me = await b.api.get('/api/v1/auth/me', b.token);
  expect(me.body.data.organizations[0].name).not.toBe('owned');
});
