// The 10-key limit under concurrency: 30 creations at once on one organization, round after round,
// never leave more than 10 active keys, and every refusal is the contract's 400.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';

const fx = withServer({ accounts: { a: {} } });

const keysPath = () => `/api/v1/organizations/${fx.a.orgId}/api-keys`;
const LIMIT = { error: 'API key limit reached: at most 10 keys per organization' };

test('30 concurrent creations, five rounds: exactly 10 active each time, the other 20 refused with 400', async () => {
  for (let round = 0; round < 5; round++) {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => fx.a.api.post(keysPath(), { name: `r${round}-${i}`, scopes: ['sites:read'] }, fx.a.token)),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 400);
    expect(created.length + refused.length).toBe(30);
    for (const r of refused) expect(r.body).toEqual(LIMIT);
    const active = (await fx.a.api.get(keysPath(), fx.a.token)).body.data.api_keys.filter((k: any) => k.status === 'active');
    expect(active.length).toBe(10);
    expect(created.length).toBe(10);
    // Every created key works; then all are revoked for the next round.
    for (const r of created) expect((await fx.a.api.get(`/api/v1/organizations/${fx.a.orgId}/sites`, r.body.data.key)).status).toBe(200);
    for (const k of active) expect((await fx.a.api.del(`${keysPath()}/${k.id}`, fx.a.token)).status).toBe(200);
  }
}, 60_000);

test('the same organization spelled in other UUID forms shares the one limit', async () => {
  const forms = [fx.a.orgId, fx.a.orgId.toUpperCase(), fx.a.orgId.replace(/-/g, ''), `{${fx.a.orgId}}`];
  const results = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      fx.a.api.post(`/api/v1/organizations/${forms[i % forms.length]}/api-keys`, { name: `f${i}`, scopes: ['sites:read'] }, fx.a.token)),
  );
  // A form the server does not take as this organization is a 404; none may push past the limit.
  for (const r of results) expect([201, 400, 404]).toContain(r.status);
  const active = (await fx.a.api.get(keysPath(), fx.a.token)).body.data.api_keys.filter((k: any) => k.status === 'active');
  expect(active.length).toBeLessThanOrEqual(10);
  expect(results.filter((r) => r.status === 201).length).toBe(active.length);
}, 60_000);
