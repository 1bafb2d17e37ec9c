// Seeds a site with a month of varied traffic through the bulk import (timestamps, IPs for countries, user agents),
// so dashboard tests have sources, pages, locations, devices, a goal's conversions and revenue to show.
import type { client } from '../helpers/api.ts';

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
];
const IPS = ['8.8.8.8', '81.2.69.142', '89.160.20.112', '2.125.160.216', '175.16.199.1', '1.1.1.1'];
const REFS = ['', 'https://www.google.com/', 'https://twitter.com/someone', 'https://news.ycombinator.com/', ''];
const JOURNEYS = [['/', '/pricing', '/signup'], ['/', '/blog/launch'], ['/blog/launch'], ['/', '/pricing'], ['/docs/start', '/docs/api'], ['/']];

/** `days` days of traffic ending now; about `perDay` visitors a day. Returns the number of events imported. */
export async function seedTraffic(api: ReturnType<typeof client>, token: string, orgId: string, siteId: string, publicId: string, days = 30, perDay = 4): Promise<number> {
  const lines: string[] = [];
  const now = Date.now();
  let n = 0;
  for (let d = days - 1; d >= 0; d--) {
    for (let v = 0; v < perDay + (d % 3); v++) {
      n++;
      const journey = JOURNEYS[n % JOURNEYS.length]!;
      // Spread visits over the past 24 h for day 0 so "today" and the last 24 h both have data.
      const start = now - d * 86_400_000 - ((n * 7_919_000) % (d === 0 ? 3_600_000 : 72_000_000)) - 60_000;
      const ref = REFS[n % REFS.length]!;
      const utm = n % 7 === 0 ? '?utm_source=newsletter&utm_medium=email&utm_campaign=launch' : '';
      journey.forEach((path, i) => {
        lines.push(JSON.stringify({
          site_id: publicId, url: `https://shop.example.com${path}${i === 0 ? utm : ''}`, referrer: i === 0 ? ref : `https://shop.example.com${journey[i - 1]}`,
          title: path, visitor_uid: `v${n}`, timestamp: new Date(start + i * 40_000).toISOString(), ip: IPS[n % IPS.length],
          user_agent: UAS[n % UAS.length], screen_w: n % 4 === 3 ? 390 : 1440, screen_h: 900, time_on_page: i ? 20 + (n % 30) : undefined,
          scroll_depth: i ? 40 + (n % 60) : undefined,
        }));
      });
      if (journey.includes('/signup') && n % 2 === 0) {
        lines.push(JSON.stringify({ site_id: publicId, event_type: 'purchase', url: 'https://shop.example.com/signup', visitor_uid: `v${n}`,
          timestamp: new Date(start + 200_000).toISOString(), ip: IPS[n % IPS.length], user_agent: UAS[n % UAS.length], revenue: 49, currency: 'USD', order_id: `o${n}` }));
      }
    }
  }
  const res = await api.call('POST', `/api/v1/organizations/${orgId}/sites/${siteId}/events/import`, { token, raw: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' } });
  if (res.status !== 200 || res.body.data?.rejected) throw new Error(`import failed: ${res.text}`);
  return res.body.data.imported;
}

/** Logs the browser in through /login: the server sets the session cookie. */
export async function logIn(page: import('playwright-core').Page, base: string, email: string, next = '/'): Promise<void> {
  await page.goto(`${base}/login${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}${next}`);
}
