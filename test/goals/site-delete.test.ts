// Deleting a site removes its goals, funnels and annotations from the metadata database, and nobody else's.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { queryMetadata } from '../helpers/inspect-db.ts';

const fx = withServer();

test("deleting a site deletes its goals, funnels and annotations, and only those", async () => {
  const a = await setupAccount(fx.srv.url, { scopes: ['goals:write', 'funnels:write', 'annotations:write'] });
  const keep = a.site.id;
  const gone = (await a.api.post(`/api/v1/organizations/${a.orgId}/sites`, { domain: 'gone.example' }, a.token)).body.data.id;
  for (const siteId of [keep, gone]) {
    const base = `/api/v1/organizations/${a.orgId}/sites/${siteId}`;
    const goal = await a.api.post(`${base}/goals`, { name: 'g', type: 'event', event_name: 'g' }, a.key);
    expect(goal.status).toBe(201);
    expect((await a.api.post(`${base}/funnels`, { name: 'f', steps: [{ type: 'goal', value: goal.body.data.id }, { type: 'pageview', value: '/' }] }, a.key)).status).toBe(201);
    expect((await a.api.post(`${base}/annotations`, { date: '2026-01-01', text: 'a' }, a.key)).status).toBe(201);
  }
  expect((await a.api.del(`/api/v1/organizations/${a.orgId}/sites/${gone}`, a.token)).status).toBe(200);
  expect(await fx.srv.stop()).toBe(0);

  for (const table of ['goals', 'funnels', 'annotations']) {
    const rows = await queryMetadata(fx.srv, `SELECT site_id, count(*)::INTEGER AS n FROM ${table} GROUP BY site_id`);
    expect(rows).toEqual([{ site_id: keep, n: 1 }]);
  }
});
