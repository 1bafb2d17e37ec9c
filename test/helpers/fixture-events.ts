// Test fixture helpers for goals, funnels and visitors: import hand-written events through the real import endpoint.
import type { client } from './api.ts';

type Api = ReturnType<typeof client>;
export type FixtureEvent = { at: string; uid: string; path?: string; name?: string; type?: string; revenue?: number; currency?: string; ip?: string; ua?: string; referrer?: string; props?: Record<string, string> };

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

/** Imports the events (timestamps ISO UTC) for the site; every line must be accepted. */
export async function importEvents(api: Api, token: string, orgId: string, siteId: string, events: FixtureEvent[]) {
  const lines = events.map((e) =>
    JSON.stringify({
      timestamp: e.at,
      url: `https://example.com${e.path ?? '/'}`,
      event_type: e.type ?? (e.name ? 'custom' : 'pageview'),
      event_name: e.name,
      visitor_uid: e.uid,
      revenue: e.revenue,
      currency: e.currency,
      referrer: e.referrer,
      properties: e.props,
      ip: e.ip ?? '203.0.113.9',
      user_agent: e.ua ?? UA,
    }),
  );
  const res = await api.call('POST', `/api/v1/organizations/${orgId}/sites/${siteId}/events/import`, {
    token,
    raw: lines.join('\n') + '\n',
    headers: { 'content-type': 'application/x-ndjson' },
  });
  if (res.status !== 200 || res.body.data?.rejected !== 0) throw new Error(`import failed: ${res.status} ${res.text}`);
  return res.body.data;
}
