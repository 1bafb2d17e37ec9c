// PATCHes of different fields of one goal (or funnel) at once: every field sent is kept, none undone by another.
import { expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';

const fx = withServer({ accounts: { a: {} } });

const site = () => `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}`;

test('concurrent goal PATCHes of name, path and value all land', async () => {
  for (let round = 0; round < 10; round++) {
    const goal = (await fx.a.api.post(`${site()}/goals`, { name: 'g', type: 'pageview', path: '/old' }, fx.a.token)).body.data;
    const rs = await Promise.all([
      fx.a.api.patch(`${site()}/goals/${goal.id}`, { name: `name ${round}` }, fx.a.token),
      fx.a.api.patch(`${site()}/goals/${goal.id}`, { path: `/new/${round}` }, fx.a.token),
      fx.a.api.patch(`${site()}/goals/${goal.id}`, { value: round + 1 }, fx.a.token),
    ]);
    for (const r of rs) expect(r.status).toBe(200);
    const now = (await fx.a.api.get(`${site()}/goals`, fx.a.token)).body.data.goals.find((g: any) => g.id === goal.id);
    expect(now).toMatchObject({ name: `name ${round}`, path: `/new/${round}`, value: round + 1 });
  }
  // value: null still clears, an absent value still keeps.
  const goal = (await fx.a.api.post(`${site()}/goals`, { name: 'v', type: 'event', event_name: 'buy', value: 5 }, fx.a.token)).body.data;
  expect((await fx.a.api.patch(`${site()}/goals/${goal.id}`, { name: 'v2' }, fx.a.token)).body.data).toMatchObject({ name: 'v2', value: 5 });
  expect((await fx.a.api.patch(`${site()}/goals/${goal.id}`, { value: null }, fx.a.token)).body.data.value).toBeUndefined();
}, 60_000);

test('concurrent funnel PATCHes of name, steps and window all land', async () => {
  for (let round = 0; round < 10; round++) {
    const steps = [{ type: 'pageview', value: '/a' }, { type: 'pageview', value: '/b' }];
    const funnel = (await fx.a.api.post(`${site()}/funnels`, { name: 'f', steps }, fx.a.token)).body.data;
    const newSteps = [{ type: 'pageview', value: `/x${round}` }, { type: 'event', value: 'signup' }];
    const rs = await Promise.all([
      fx.a.api.patch(`${site()}/funnels/${funnel.id}`, { name: `funnel ${round}` }, fx.a.token),
      fx.a.api.patch(`${site()}/funnels/${funnel.id}`, { steps: newSteps }, fx.a.token),
      fx.a.api.patch(`${site()}/funnels/${funnel.id}`, { window: '7d' }, fx.a.token),
    ]);
    for (const r of rs) expect(r.status).toBe(200);
    const now = (await fx.a.api.get(`${site()}/funnels`, fx.a.token)).body.data.funnels.find((f: any) => f.id === funnel.id);
    expect(now).toMatchObject({ name: `funnel ${round}`, steps: newSteps, window: '7d' });
  }
}, 60_000);
