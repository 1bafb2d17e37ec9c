// End-to-end: a real headless Chromium visits a customer site that embeds /tracker.js from a running Tern server.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { startFixtureSite, type FixtureSite } from './fixture-site.ts';
import { eventually, launchBrowser, newVisitorContext, recordBeacons, type Beacon } from './browser.ts';

let srv: TestServer;
let site: FixtureSite;
let browser: Browser;
let account: Awaited<ReturnType<typeof setupAccount>>;
/** The events the browser sent in the first test, for the API checks of the second. */
let sent: any[] = [];

beforeAll(async () => {
  srv = await startServer();
  account = await setupAccount(srv.url, { domain: '127.0.0.1', scopes: ['analytics:read', 'visitors:read'] });
  await account.api.patch(`/api/v1/organizations/${account.orgId}/sites/${account.site.id}`, { currency: 'EUR' }, account.token);
  // The site runs on 127.0.0.1 under automation, so the test opts in to both.
  site = startFixtureSite(srv.url, account.site.public_id, 'data-allow-localhost data-allow-automation');
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  site?.stop();
  await srv?.cleanup();
}, 60_000);

const events = (beacons: Beacon[]) => beacons.filter((b) => b.endpoint === 'event').map((b) => b.body);
const path = (url: string) => { const u = new URL(url); return u.pathname + u.search; };

test('a visit: pageviews, SPA routes, engagement, automatic events and the tern API', async () => {
  const context = await newVisitorContext(browser);
  const beacons = recordBeacons(context, srv.url);
  await context.route('https://partner.example.org/**', (r) => r.fulfill({ contentType: 'text/html', body: '<h1>partner</h1>' }));
  const page = await context.newPage();

  await page.goto(site.url + '/');
  await eventually(() => events(beacons).length >= 2);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForTimeout(1200); // visible time on "/" that the next pageview reports
  await page.evaluate(() => {
    // What an SPA router does: push the URL, scroll to the top, set the title a little later.
    history.pushState({}, '', '/pricing');
    window.scrollTo(0, 0);
    setTimeout(() => { document.title = 'Pricing'; }, 20);
    history.replaceState({ same: true }, '', '/pricing'); // same URL: not a new pageview
  });
  await eventually(() => events(beacons).filter((e) => e.event_type === 'pageview').length >= 2);
  await page.evaluate(() => history.pushState({}, '', '/docs?tab=api'));
  await page.goBack(); // popstate → /pricing
  await eventually(() => events(beacons).filter((e) => e.event_type === 'pageview').length >= 4);
  await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  await page.click('#cta');
  await page.evaluate(() => {
    const tern = (window as any).tern;
    tern.track('Video Play', { video: 'intro', seconds: 42 });
    tern('purchase', { revenue: 49.9, currency: 'EUR', order_id: 'ord-1' });
    tern.identify('user-42', { name: 'Ann', email: 'ann@example.com', avatar: 'https://example.com/ann.png', plan: 'pro' });
  });
  await page.waitForTimeout(1100); // visible time on /pricing, reported by the next page load
  await Promise.all([page.waitForURL(site.url + '/thanks'), page.click('#submit')]);
  await eventually(() => events(beacons).some((e) => path(e.url) === '/thanks'));
  await Promise.all([page.waitForURL('https://partner.example.org/landing'), page.click('#out')]);
  await eventually(() => events(beacons).some((e) => e.event_type === 'outbound'));
  await context.close();

  sent = events(beacons);
  expect(beacons.every((b) => b.contentType.startsWith('text/plain'))).toBe(true); // sendBeacon, no preflight
  expect(sent.map((e) => [e.event_type, e.event_name ?? null, path(e.url)])).toEqual([
    ['pageview', null, '/'],
    ['custom', 'Early Call', '/'],
    ['pageview', null, '/pricing'],
    ['pageview', null, '/docs?tab=api'],
    ['pageview', null, '/pricing'],
    ['download', 'File Download', '/pricing'],
    ['click', 'Signup CTA', '/pricing'],
    ['custom', 'Video Play', '/pricing'],
    ['purchase', 'Purchase', '/pricing'],
    ['form_submit', 'Form Submit', '/pricing'],
    ['pageview', null, '/thanks'],
    ['outbound', 'Outbound Link', '/thanks'],
  ]);
  // One visitor, one session, across SPA routes and a full page load.
  expect(new Set(sent.map((e) => e.visitor_uid)).size).toBe(1);
  expect(new Set(sent.map((e) => e.session_id)).size).toBe(1);
  expect(sent[0].visitor_uid).toMatch(/^[0-9a-f]{32}$/);
  for (const e of sent) {
    expect(e.site_id).toBe(account.site.public_id);
    expect(e.screen_w).toBeGreaterThan(0);
    expect(e.screen_h).toBeGreaterThan(0);
  }
  expect(sent[0].title).toBe('Home');
  expect(sent[2].title).toBe('Pricing'); // the title the router set after pushState
  expect(sent[0].time_on_page).toBeUndefined(); // nothing before the first page of the visit

  const [, early, pricing, docs, back, download, cta, video, purchase, form, thanks, outbound] = sent;
  expect(early.properties).toEqual({ source: 'queue' });
  // Each pageview reports the page being left: visible seconds and the deepest scroll.
  expect(pricing.time_on_page).toBeGreaterThanOrEqual(1);
  expect(pricing.scroll_depth).toBe(100);
  expect(docs.time_on_page).toBeGreaterThanOrEqual(0);
  expect(docs.scroll_depth).toBeLessThan(100);
  expect(back.scroll_depth).toBeGreaterThanOrEqual(0);
  expect(thanks.time_on_page).toBeGreaterThanOrEqual(1); // across a full page load, via sessionStorage
  expect(thanks.scroll_depth).toBeGreaterThan(0);
  expect(download.properties).toEqual({ url: `${site.url}/files/report.pdf` });
  expect(cta.properties).toEqual({ plan: 'pro', position: 'hero' });
  expect(video.properties).toEqual({ video: 'intro', seconds: 42 });
  expect(purchase).toMatchObject({ revenue: 49.9, currency: 'EUR', order_id: 'ord-1' });
  expect(form.properties).toEqual({ form: 'signup' });
  expect(outbound.properties).toEqual({ url: 'https://partner.example.org/landing' });

  const identify = beacons.filter((b) => b.endpoint === 'identify').map((b) => b.body);
  expect(identify).toEqual([{
    site_id: account.site.public_id, visitor_uid: sent[0].visitor_uid, user_id: 'user-42',
    name: 'Ann', email: 'ann@example.com', avatar: 'https://example.com/ann.png', custom: { plan: 'pro' },
  }]);
}, 60_000);

test('what arrived, read back through the analytics API', async () => {
  expect(sent.length).toBe(12);
  const base = `/api/v1/organizations/${account.orgId}/sites/${account.site.id}`;
  const get = async (p: string) => (await account.api.get(`${base}${p}`, account.key)).body.data;
  // Ingestion loads in batches: wait until all twelve events are queryable.
  const stats = await eventually(async () => { const d = await get('/analytics/stats?period=day'); return d?.metrics?.events >= 12 && d; });
  expect(stats.metrics).toMatchObject({ visitors: 1, visits: 1, pageviews: 5, events: 12, bounce_rate: 0 });

  const pages = await get('/analytics/pages?period=day&limit=100');
  const byPage = Object.fromEntries(pages.results.map((r: any) => [r.name, r]));
  expect(Object.keys(byPage).sort()).toEqual(['/', '/docs', '/pricing', '/thanks']);
  expect([byPage['/'].pageviews, byPage['/pricing'].pageviews, byPage['/docs'].pageviews, byPage['/thanks'].pageviews]).toEqual([1, 2, 1, 1]);
  expect((await get('/analytics/pages?period=day&dimension=entry_page')).results.map((r: any) => r.name)).toEqual(['/']);
  expect((await get('/analytics/pages?period=day&dimension=exit_page')).results.map((r: any) => r.name)).toEqual(['/thanks']);

  const revenue = await get('/analytics/revenue?period=day');
  expect(revenue.currency).toBe('EUR');
  expect(revenue.metrics).toMatchObject({ revenue: 49.9, orders: 1, purchasers: 1 });

  const devices = await get('/analytics/devices?period=day&dimension=screen');
  expect(devices.results.map((r: any) => r.name)).toEqual(['laptop']); // 1280 px wide
}, 30_000);

test('time on page and scroll depth are credited to the page they were measured on', async () => {
  const base = `/api/v1/organizations/${account.orgId}/sites/${account.site.id}`;
  const pages = (await account.api.get(`${base}/analytics/pages?period=day&limit=100`, account.key)).body.data;
  const home = pages.results.find((r: any) => r.name === '/');
  // The visitor scrolled "/" to the bottom and stayed over a second; /pricing's pageview reported it (spec §2.2:
  // time_on_page is the time on the previous page).
  expect(home.time_on_page).toBeGreaterThanOrEqual(1);
  expect(home.scroll_depth).toBe(100);
  const docs = pages.results.find((r: any) => r.name === '/docs');
  expect(docs.scroll_depth).toBeLessThan(100); // /docs was left at the top
  // The last page of a visit has no next pageview to report it.
  expect(pages.results.find((r: any) => r.name === '/thanks')).toMatchObject({ time_on_page: null, scroll_depth: null });
}, 60_000);

test('one visitor, identified, with the whole visit on its timeline', async () => {
  const base = `/api/v1/organizations/${account.orgId}/sites/${account.site.id}`;
  const list = await eventually(async () => {
    const d = (await account.api.get(`${base}/visitors?search=user-42`, account.key)).body.data;
    return d?.visitors?.[0]?.total_pageviews === 5 && d;
  });
  expect(list.pagination.total).toBe(1);
  const visitor = list.visitors[0];
  expect(visitor).toMatchObject({
    uid: sent[0].visitor_uid, external_id: 'user-42', name: 'Ann', email: 'ann@example.com',
    avatar_url: 'https://example.com/ann.png', total_sessions: 1, total_pageviews: 5, total_revenue: 49.9,
  });
  const timeline = (await account.api.get(`${base}/visitors/${visitor.id}/timeline?limit=100`, account.key)).body.data;
  expect(timeline.visitor.id).toBe(visitor.id);
  expect(timeline.pagination.total).toBe(12);
  const seen = timeline.events.map((e: any) => `${e.event_type}:${e.event_name ?? ''}:${e.path}`).sort();
  expect(seen).toEqual(sent.map((e) => `${e.event_type}:${e.event_name ?? ''}:${new URL(e.url).pathname}`).sort());
  expect(new Set(timeline.events.map((e: any) => e.session_id))).toEqual(new Set([sent[0].session_id]));
  const purchase = timeline.events.find((e: any) => e.event_type === 'purchase');
  expect(purchase).toMatchObject({ revenue: 49.9, currency: 'EUR' });
  expect(timeline.events.find((e: any) => e.event_name === 'Signup CTA').properties).toEqual({ plan: 'pro', position: 'hero' });
}, 30_000);
