// Every scope of the scope table (spec §5.3) against an endpoint that needs it. Add a row when you add an endpoint.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

type Ids = { orgId: string; siteId: string };
type Row = {
  scope: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (ids: Ids) => string;
  /** Sent with POST/PATCH; `{}` is fine: a 400 for the body proves the scope check passed. */
  body?: unknown;
  /** What a holder of the scope gets. */
  expect: number;
};

const site = ({ orgId, siteId }: Ids) => `/api/v1/organizations/${orgId}/sites/${siteId}`;

const SCOPE_TABLE: Row[] = [
  { scope: 'analytics:read', method: 'GET', path: (ids) => `${site(ids)}/analytics/stats?period=7d`, expect: 200 },
  { scope: 'analytics:read', method: 'GET', path: (ids) => `${site(ids)}/analytics/pages`, expect: 200 },
  { scope: 'visitors:read', method: 'GET', path: (ids) => `${site(ids)}/visitors`, expect: 200 },
  { scope: 'sites:read', method: 'GET', path: ({ orgId }) => `/api/v1/organizations/${orgId}/sites`, expect: 200 },
  { scope: 'sites:read', method: 'GET', path: site, expect: 200 },
  { scope: 'goals:read', method: 'GET', path: (ids) => `${site(ids)}/goals`, expect: 200 },
  { scope: 'goals:write', method: 'POST', path: (ids) => `${site(ids)}/goals`, body: { name: 'Signup', type: 'pageview', path: '/signup' }, expect: 201 },
  { scope: 'funnels:read', method: 'GET', path: (ids) => `${site(ids)}/funnels`, expect: 200 },
  { scope: 'funnels:write', method: 'POST', path: (ids) => `${site(ids)}/funnels`, body: {}, expect: 400 },
  { scope: 'annotations:read', method: 'GET', path: (ids) => `${site(ids)}/annotations`, expect: 200 },
  { scope: 'annotations:write', method: 'POST', path: (ids) => `${site(ids)}/annotations`, body: { date: '2026-01-01', text: 'Launch' }, expect: 201 },
];

const ALL_SCOPES = ['analytics:read', 'sites:read', 'goals:read', 'goals:write', 'funnels:read', 'funnels:write', 'annotations:read', 'annotations:write', 'visitors:read'];

let ids: Ids;

const fx = withServer({ accounts: { acct: {} } });
beforeAll(async () => {
  ids = { orgId: fx.acct.orgId, siteId: fx.acct.site.id };
});

async function withKey<T>(scopes: string[], fn: (key: string) => Promise<T>): Promise<T> {
  const k = await fx.acct.api.post(`/api/v1/organizations/${fx.acct.orgId}/api-keys`, { name: 'scope test', scopes }, fx.acct.token);
  expect(k.status).toBe(201);
  try {
    return await fn(k.body.data.key);
  } finally {
    await fx.acct.api.del(`/api/v1/organizations/${fx.acct.orgId}/api-keys/${k.body.data.id}`, fx.acct.token);
  }
}

const send = (row: Row, token: string) =>
  fx.acct.api.call(row.method, row.path(ids), { token, body: row.method === 'POST' || row.method === 'PATCH' ? row.body ?? {} : undefined });

test('the table covers every scope a key can hold', () => {
  expect([...new Set(SCOPE_TABLE.map((r) => r.scope))].sort()).toEqual([...ALL_SCOPES].sort());
});

describe.each(SCOPE_TABLE.map((r) => [`${r.method} ${r.path({ orgId: '{orgId}', siteId: '{siteId}' })} (${r.scope})`, r] as const))('%s', (_, row) => {
  test('a key holding every other scope gets 403 naming the missing one', async () => {
    await withKey(ALL_SCOPES.filter((s) => s !== row.scope), async (key) => {
      const r = await send(row, key);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: `API key missing required scope: ${row.scope}` });
      expect(r.headers.get('x-ratelimit-limit')).toBe('600');
    });
  });

  test('a key holding only this scope gets through', async () => {
    await withKey([row.scope], async (key) => {
      const r = await send(row, key);
      expect(r.status).toBe(row.expect);
    });
  });

  test('a member session needs no scope', async () => {
    expect((await send(row, fx.acct.token)).status).toBe(row.expect);
  });
});
