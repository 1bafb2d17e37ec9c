// Hand-written events for goals, funnels and visitors tests, imported through the real import endpoint (helpers/import.ts).
import { importAll, type ImportAccount } from './import.ts';

export type FixtureEvent = { at: string; uid: string; path?: string; name?: string; type?: string; revenue?: number; currency?: string; ip?: string; ua?: string; referrer?: string; props?: Record<string, string> };

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

/** Imports the events (timestamps ISO UTC) for the site; every line must be accepted. */
export function importEvents(url: string, acct: ImportAccount, events: FixtureEvent[]) {
  return importAll(url, acct, events.map((e) => ({
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
  })));
}
