// Hand-countable analytics fixture (site in Europe/Berlin, currency EUR) loaded through the real import endpoint.
// 2025-10-26 is the day Berlin leaves summer time: local day = [2025-10-25T22:00Z, 2025-10-26T23:00Z), 25 hours.
export const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1';
export const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const US = '8.8.8.8';
const GB = '81.2.69.142';

export type Line = Record<string, unknown> & { timestamp: string };

const ev = (timestamp: string, uid: string, path: string, o: Record<string, unknown> = {}): Line => ({
  timestamp, visitor_uid: uid, url: `https://example.com${path}`, event_type: 'pageview', ...o,
});

const a = { ip: US, user_agent: CHROME_WIN };
const b = { ip: GB, user_agent: SAFARI_IPHONE };
const c = { ip: US, user_agent: FIREFOX_LINUX };
const d = { ip: US, user_agent: CHROME_WIN };

/**
 * Visits (local Berlin times):
 *  E1 2025-10-15 14:00  /, /about (60 s)                                  — previous period of 7d
 *  D1 2025-10-20 12:00  /blog/post-2, /blog/post-1 (tp 40, sd 90), buys O2 20 USD, O3 30 EUR (180 s)
 *  C2 2025-10-25 23:30 CEST  /  (bounce)
 *  C1 2025-10-26 00:30 CEST  /pricing from twitter.com (bounce)
 *  A1 2025-10-26 09:00 CET   / from google, /pricing (tp 300, sd 80), Signup {plan: pro} (600 s)
 *  A2 2025-10-26 10:00 CET   /blog/post-1 (bounce; 50 min after A1's last event → new visit)
 *  B1 2025-10-26 23:30 CET   / ?utm newsletter/email, /pricing (tp 60, sd 50), then on 10-27 00:10 and 00:15
 *                            buys O1 50 EUR twice (same order id)  (2,700 s)
 *  D2 2025-10-28 11:00 CET   buys O3 again (already counted on 10-20)
 */
export const FIXTURE: Line[] = [
  ev('2025-10-15T12:00:00Z', 'e', '/', a),
  ev('2025-10-15T12:01:00Z', 'e', '/about', a),
  ev('2025-10-20T10:00:00Z', 'd', '/blog/post-2', d),
  ev('2025-10-20T10:01:00Z', 'd', '/blog/post-1', { ...d, time_on_page: 40, scroll_depth: 90 }),
  ev('2025-10-20T10:02:00Z', 'd', '/checkout', { ...d, event_type: 'purchase', event_name: 'Purchase', revenue: 20, currency: 'USD', order_id: 'O2' }),
  ev('2025-10-20T10:03:00Z', 'd', '/checkout', { ...d, event_type: 'purchase', event_name: 'Purchase', revenue: 30, currency: 'EUR', order_id: 'O3' }),
  ev('2025-10-25T21:30:00Z', 'c', '/', c),
  ev('2025-10-25T22:30:00Z', 'c', '/pricing', { ...c, referrer: 'https://twitter.com/somebody' }),
  ev('2025-10-26T08:00:00Z', 'a', '/', { ...a, referrer: 'https://www.google.com/' }),
  ev('2025-10-26T08:05:00Z', 'a', '/pricing', { ...a, time_on_page: 300, scroll_depth: 80 }),
  ev('2025-10-26T08:10:00Z', 'a', '/pricing', { ...a, event_type: 'custom', event_name: 'Signup', properties: { plan: 'pro' } }),
  ev('2025-10-26T09:00:00Z', 'a', '/blog/post-1', a),
  ev('2025-10-26T22:30:00Z', 'b', '/?utm_source=newsletter&utm_medium=email&utm_campaign=autumn', b),
  ev('2025-10-26T22:50:00Z', 'b', '/pricing', { ...b, time_on_page: 60, scroll_depth: 50 }),
  ev('2025-10-26T23:10:00Z', 'b', '/checkout', { ...b, event_type: 'purchase', event_name: 'Purchase', revenue: 50, currency: 'EUR', order_id: 'O1' }),
  ev('2025-10-26T23:15:00Z', 'b', '/checkout', { ...b, event_type: 'purchase', event_name: 'Purchase', revenue: 50, currency: 'EUR', order_id: 'O1' }),
  ev('2025-10-28T10:00:00Z', 'd', '/checkout', { ...d, event_type: 'purchase', event_name: 'Purchase', revenue: 30, currency: 'EUR', order_id: 'O3' }),
];
