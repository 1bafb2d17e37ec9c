// PATCHes of different fields of one goal (or funnel) at once: every field sent is kept, none undone by another.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';

let srv: TestServer;
let a: Awaited<ReturnType<typeof setupAccount>>;

beforeAll(async () => {
  srv = await startServer();
  a = await setupAccount(srv.url);
});
afterAll(async () => { await srv.cleanup(); });

const site = () => `/api/v1/organizations/${a.orgId}/sites/${a.site.id}`;

test('concurrent goal PATCHes of name, path and value all land', async () => {
  for (let round = 0; round < 10; round++) {
    const goal = (await a.api.post(`${site()}/goals`, { name: 'g', type: 'pageview', path: '/old' }, a.token)).body.data;
    const rs = await Promise.all([
      a.api.patch(`${site()}/goals/${goal.id}`, { name: `name ${round}` }, a.token),
      a.api.patch(`${site()}/goals/${goal.id}`, { path: `/new/${round}` }, a.token),
      a.api.patch(`${site()}/goals/${goal.id}`, { value: round + 1 }, a.token),
    ]);
    for (const r of rs) expect(r.status).toBe(200);
    const now = (await a.api.get(`${site()}/goals`, a.token)).body.data.goals.find((g: any) => g.id === goal.id);
    expect(now).toMatchObject({ name: `name ${round}`, path: `/new/${round}`, value: round + 1 });
  }
  // value: null still clears, an absent value still keeps.
  const goal = (await a.api.post(`${site()}/goals`, { name: 'v', type: 'event', event_name: 'buy', value: 5 }, a.token)).body.data;
  expect((await a.api.patch(`${site()}/goals/${goal.id}`, { name: 'v2' }, a.token)).body.data).toMatchObject({ name: 'v2', value: 5 });
  expect((await a.api.patch(`${site()}/goals/${goal.id}`, { value: null }, a.token)).body.data.value).toBeUndefined();
}, 60_000);

test('concurrent funnel PATCHes of name, steps and window all land', async () => {
  for (let round = 0; round < 10; round++) {
    const steps = [{ type: 'pageview', value: '/a' }, { type: 'pageview', value: '/b' }];
    const funnel = (await a.api.post(`${site()}/funnels`, { name: 'f', steps }, a.token)).body.data;
    const newSteps = [{ type: 'pageview', value: `/x${round}` }, { type: 'event', value: 'signup' }];
    const rs = await Promise.all([
      a.api.patch(`${site()}/funnels/${funnel.id}`, { name: `funnel ${round}` }, a.token),
      a.api.patch(`${site()}/funnels/${funnel.id}`, { steps: newSteps }, a.token),
      a.api.patch(`${site()}/funnels/${funnel.id}`, { window: '7d' }, a.token),
    ]);
    for (const r of rs) expect(r.status).toBe(200);
    const now = (await a.api.get(`${site()}/funnels`, a.token)).body.data.funnels.find((f: any) => f.id === funnel.id);
    expect(now).toMatchObject({ name: `funnel ${round}`, steps: newSteps, window: '7d' });
  }
}, 60_000);
