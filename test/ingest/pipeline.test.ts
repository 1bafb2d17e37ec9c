// Live and imported events end up enriched, sessionized and profiled as stored rows (events, visits, visitors).
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { BROWSER_UA, queryStored, sendEvent, storedRelation } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';

let pk: string;
const stored: Record<string, any[]> = {};

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';

const fx = withServer({ server: { env: { TRUST_PROXY: 'true' } }, accounts: { acct: {} } });
beforeAll(async () => {
  pk = fx.acct.site.public_id;
  const ev = (body: object, headers: Record<string, string> = {}) => sendEvent(fx.srv.url, { site_id: pk, ...body }, headers);

  // Enrichment: user agents, IPs (via X-Forwarded-For), referrers, UTM links.
  await ev({ url: 'https://example.com/ua-chrome', visitor_uid: 'enr1' }, { 'x-forwarded-for': '8.8.8.8, 10.0.0.1' });
  await ev({ url: 'https://example.com/ua-iphone', visitor_uid: 'enr2', screen_w: 390, screen_h: 844 }, { 'user-agent': IPHONE_UA, 'x-forwarded-for': '81.2.69.142' });
  await ev({ url: 'https://example.com/ua-firefox', visitor_uid: 'enr3', referrer: 'https://www.google.com/search?q=tern' }, { 'user-agent': FIREFOX_LINUX_UA });
  await ev({ url: 'https://example.com/utm?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=t&utm_content=c', visitor_uid: 'enr4' });
  await ev({ url: 'https://example.com/bot', visitor_uid: 'bot' }, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });

  // A visit spread over two log segments (the segment rotates every second), plus a purchase.
  await ev({ url: 'https://example.com/landing', visitor_uid: 'multi', referrer: 'https://news.ycombinator.com/' });
  await Bun.sleep(1300);
  await ev({ url: 'https://example.com/pricing', visitor_uid: 'multi', referrer: 'https://example.com/landing', scroll_depth: 80 });
  await ev({ url: 'https://example.com/checkout', visitor_uid: 'multi', event_type: 'purchase', revenue: 49.5, currency: 'eur', order_id: 'o-1' });
  await ev({ url: 'https://example.com/signup', event_name: 'Signup', visitor_uid: 'multi', properties: { plan: 'pro' } });

  // Anonymous visitors: same IP + UA is one visitor, another UA another.
  await ev({ url: 'https://example.com/anon1' }, { 'x-forwarded-for': '1.2.3.4' });
  await ev({ url: 'https://example.com/anon2' }, { 'x-forwarded-for': '1.2.3.4' });
  await ev({ url: 'https://example.com/anon3' }, { 'x-forwarded-for': '1.2.3.4', 'user-agent': FIREFOX_LINUX_UA });

  // Identify: creates a visitor, then a later identify overwrites only the fields it carries.
  const identify = (b: object) => fetch(`${fx.srv.url}/api/v1/identify`, { method: 'POST', headers: { 'content-type': 'text/plain', 'user-agent': BROWSER_UA }, body: JSON.stringify({ site_id: pk, ...b }) });
  const i1 = await identify({ visitor_uid: 'multi', user_id: 'cus_1', name: 'Ann', email: 'ann@example.com', custom: { plan: 'pro', seats: 3 } });
  expect(i1.status).toBe(202);
  expect(await i1.text()).toBe('ok');
  expect((await identify({ visitor_uid: 'multi', user_id: 'cus_1', email: 'ann@new.example', custom: { seats: 5 } })).status).toBe(202);
  expect((await identify({ visitor_uid: 'ghost', user_id: 'cus_2', avatar: 'https://example.com/a.png' })).status).toBe(202);

  // Visit splitting at exactly 30 minutes, through the import endpoint with explicit timestamps.
  const at = (t: string, path: string, uid = 'split') => ({ url: `https://example.com${path}`, timestamp: `2026-02-01T${t}Z`, visitor_uid: uid, user_agent: IPHONE_UA, ip: '8.8.8.8' });
  const imp = await importLines(fx.srv.url, fx.acct, [
    at('10:00:00', '/s1'),
    at('10:29:59', '/s2'), // 29:59 after → same visit
    at('10:59:59', '/s3'), // 30:00 after → new visit
    at('11:00:30', '/s4'),
    { ...at('10:10:00', '/o1', 'other'), referrer: 'https://www.bing.com/' },
    { ...at('10:10:05', '/o2', 'other'), event_name: 'Download', user_agent: 'Googlebot/2.1' },
  ]);
  expect(imp).toEqual({ status: 200, body: { success: true, data: { imported: 6, rejected: 0, errors: [] } } });

  expect(await fx.srv.stop()).toBe(0);
  const q = (sql: string) => queryStored(fx.srv.dataDir, sql);
  stored.events = await q(`SELECT * EXCLUDE (props), map_entries(props) AS props FROM ${await storedRelation(fx.srv.dataDir, 'events')} ORDER BY ts`);
  stored.visits = await q(`SELECT * FROM ${await storedRelation(fx.srv.dataDir, 'visits')} ORDER BY start_ts`);
  stored.visitors = await q(`SELECT * EXCLUDE (custom), custom::VARCHAR AS custom FROM visitors`);
});

const eventAt = (path: string) => stored.events!.find((e) => e.path === path);
const visitOf = (path: string) => stored.visits!.find((v) => v.visit_id === eventAt(path)?.visit_id);
const visitorByUid = (uid: string) => stored.visitors!.find((v) => v.uid === uid);

test('user agents become browser, OS and device', () => {
  expect(eventAt('/ua-chrome')).toMatchObject({ browser: 'Chrome', os: 'Windows', device: 'desktop' });
  expect(eventAt('/ua-iphone')).toMatchObject({ browser: 'Safari', os: 'iOS', device: 'mobile', screen: 'mobile' });
  expect(eventAt('/ua-firefox')).toMatchObject({ browser: 'Firefox', os: 'Linux' });
});

test('client IPs from X-Forwarded-For become countries, and are never stored', () => {
  expect(eventAt('/ua-chrome')!.country).toBe('US');
  expect(eventAt('/ua-iphone')!.country).toBe('GB');
  expect(JSON.stringify(stored.events)).not.toContain('8.8.8.8');
});

test('referrers and UTM links become source, channel and utm columns', () => {
  expect(eventAt('/ua-firefox')).toMatchObject({ source: 'Google', channel: 'Organic Search' });
  expect(eventAt('/utm')).toMatchObject({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring', utm_term: 't', utm_content: 'c', channel: 'Email' });
  expect(eventAt('/ua-chrome')).toMatchObject({ source: null, channel: 'Direct', hostname: 'example.com' });
});

test('bots are acknowledged but not stored (live only; imports keep them)', () => {
  expect(eventAt('/bot')).toBeUndefined();
  expect(eventAt('/o2')).toBeDefined();
});

test('a visit spanning several loads is one visits row with merged counters', () => {
  const v = visitOf('/landing')!;
  expect(visitOf('/signup')!.visit_id).toBe(v.visit_id);
  expect(v).toMatchObject({ entry_page: '/landing', exit_page: '/pricing', pageviews: 2, events: 4, is_bounce: false, source: 'Hacker News', revenue: 49.5 });
  expect(v.duration).toBeGreaterThanOrEqual(1);
  expect(eventAt('/checkout')).toMatchObject({ event_type: 'purchase', currency: 'EUR', order_id: 'o-1' });
  expect(eventAt('/signup')).toMatchObject({ event_type: 'custom', event_name: 'Signup', props: [{ key: 'plan', value: 'pro' }] });
  expect(eventAt('/pricing')).toMatchObject({ scroll_depth: 80, source: null });
});

test('a pageview stores the page its engagement report is about: the previous pageview of its visit', () => {
  const engaged = (path: string) => [eventAt(path)!.engaged_path, eventAt(path)!.engaged_hostname];
  // Live, across two log segments; other event types carry no report.
  expect(engaged('/landing')).toEqual([null, null]);
  expect(engaged('/pricing')).toEqual(['/landing', 'example.com']);
  expect(engaged('/signup')).toEqual([null, null]);
  expect(engaged('/anon2')).toEqual(['/anon1', 'example.com']);
  expect(engaged('/anon3')).toEqual([null, null]);
  // Imported: cut into visits in SQL; a new visit starts with nothing to report.
  expect(engaged('/s1')).toEqual([null, null]);
  expect(engaged('/s2')).toEqual(['/s1', 'example.com']);
  expect(engaged('/s3')).toEqual([null, null]);
  expect(engaged('/s4')).toEqual(['/s3', 'example.com']);
  expect(engaged('/o2')).toEqual([null, null]);
});

test('anonymous visitors are keyed by IP and user agent', () => {
  expect(eventAt('/anon1')!.visitor_id).toBe(eventAt('/anon2')!.visitor_id);
  expect(eventAt('/anon1')!.visit_id).toBe(eventAt('/anon2')!.visit_id);
  expect(eventAt('/anon3')!.visitor_id).not.toBe(eventAt('/anon1')!.visitor_id);
});

test('imported events split into visits at a gap of exactly 30 minutes', () => {
  expect(eventAt('/s2')!.visit_id).toBe(eventAt('/s1')!.visit_id);
  expect(eventAt('/s3')!.visit_id).not.toBe(eventAt('/s1')!.visit_id);
  expect(eventAt('/s4')!.visit_id).toBe(eventAt('/s3')!.visit_id);
  expect(visitOf('/s1')).toMatchObject({ start_ts: '2026-02-01T10:00:00.000Z', end_ts: '2026-02-01T10:29:59.000Z', duration: 1799, pageviews: 2, entry_page: '/s1', exit_page: '/s2', country: 'US', browser: 'Safari' });
  expect(visitOf('/s3')).toMatchObject({ duration: 31, entry_page: '/s3', exit_page: '/s4' });
  expect(visitOf('/o1')).toMatchObject({ pageviews: 1, events: 2, is_bounce: false, source: 'Bing' });
  expect(visitorByUid('split')).toMatchObject({ total_sessions: 2, total_pageviews: 4, first_seen_at: '2026-02-01T10:00:00.000Z', last_seen_at: '2026-02-01T11:00:30.000Z', last_country: 'US', last_device: 'mobile' });
});

test('visitor profiles carry totals, last_* fields and identify data', () => {
  const m = visitorByUid('multi')!;
  expect(m).toMatchObject({ external_id: 'cus_1', name: 'Ann', email: 'ann@new.example', total_sessions: 1, total_pageviews: 2, total_revenue: 49.5, last_browser: 'Chrome', last_os: 'Windows', last_device: 'desktop', last_referrer_source: 'Hacker News' });
  expect(JSON.parse(m.custom)).toEqual({ plan: 'pro', seats: '5' });
  expect(m.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(visitorByUid('ghost')).toMatchObject({ external_id: 'cus_2', avatar_url: 'https://example.com/a.png', total_sessions: 0, first_seen_at: null });
  expect(stored.visitors!.filter((v) => v.uid === 'multi')).toHaveLength(1);
});
