// The analytics endpoints give the same answers when the server runs on Deno.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { FIXTURE } from './fixture.ts';
import { importAll } from '../helpers/import.ts';

const fx = withServer({ server: { runtime: 'deno' } });

test('stats, a labelled breakdown and a DST-day chart on Deno', async () => {
  const acc = await setupAccount(fx.srv.url, { timezone: 'Europe/Berlin', scopes: ['analytics:read'] });
  await importAll(fx.srv.url, acc, FIXTURE);
  const get = async (p: string) => (await acc.api.get(`/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}/analytics${p}`, acc.key)).body.data;
  expect((await get('/stats?period=7d&date=2025-10-26')).metrics).toEqual(
    { visitors: 4, visits: 6, pageviews: 9, views_per_visit: 1.5, bounce_rate: 50, visit_duration: 580, events: 12 },
  );
  expect((await get('/locations?period=7d&date=2025-10-26')).results.map((r: any) => r.label)).toEqual(['United States', 'United Kingdom']);
  const chart = await get('/charts?period=day&date=2025-10-26');
  expect(chart.points).toHaveLength(24);
  expect(chart.points[23]).toMatchObject({ date: '2025-10-26 23:00:00', visits: 1 });
});
