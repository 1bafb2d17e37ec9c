// Browser tests of when the tracker stays silent (localhost, automation, opt-out), of its resilience (no storage,
// no sendBeacon, bad API calls) and of its switches (hash routing, data-api, automatic events off).
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { startFixtureSite, type FixtureSite } from './fixture-site.ts';
import { eventually, launchBrowser, newVisitorContext, recordBeacons } from './browser.ts';

let srv: TestServer;
let browser: Browser;
let siteId: string;
const sites: FixtureSite[] = [];

beforeAll(async () => {
  srv = await startServer();
  siteId = (await setupAccount(srv.url, { domain: '127.0.0.1' })).site.public_id;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const s of sites) s.stop();
  await srv?.cleanup();
}, 60_000);

function fixture(attrs: string) {
  const s = startFixtureSite(srv.url, siteId, attrs);
  sites.push(s);
  return s;
}

/** Loads `path`, runs the tern API and a click, and returns what reached the network plus console warnings. */
async function visit(attrs: string, path = '/plain', before?: string) {
  const context = await newVisitorContext(browser);
  const beacons = recordBeacons(context, srv.url);
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  const s = fixture(attrs);
  if (before) await page.addInitScript(before);
  await page.goto(s.url + path);
  await page.waitForFunction(() => typeof (window as any).tern === 'function');
  await page.evaluate(() => (window as any).tern.track('After Load'));
  return { context, page, beacons, warnings, site: s };
}

// The page is on 127.0.0.1 and navigator.webdriver is true: each guard holds unless its own opt-in is present.
for (const [attrs, reason] of [['data-allow-automation', 'localhost'], ['data-allow-localhost', 'automated browser']]) {
  test(`with only ${attrs}, the tracker stays silent (${reason}) and says why`, async () => {
    const v = await visit(attrs);
    expect(await v.page.evaluate(() => navigator.webdriver)).toBe(true);
    await v.page.evaluate(() => history.pushState({}, '', '/elsewhere'));
    await v.page.waitForTimeout(500); // room for anything that would have been sent (SPA views wait 150 ms)
    expect(v.beacons).toEqual([]);
    expect(v.warnings).toContain(`[tern] not tracking: ${reason}`);
    await v.context.close();
  }, 60_000);
}

test('the localStorage opt-out silences the tracker, and tern.optIn() lifts it', async () => {
  const v = await visit('data-allow-localhost data-allow-automation', '/plain', "localStorage.setItem('tern_ignore', 'true')");
  await v.page.waitForTimeout(500);
  expect(v.beacons).toEqual([]);
  await v.page.evaluate(() => { (window as any).tern.optIn(); (window as any).tern.track('Back In'); });
  await eventually(() => v.beacons.length > 0);
  expect(v.beacons.map((b) => b.body.event_name)).toEqual(['Back In']);
  await v.context.close();
}, 60_000);

test('data-hash makes hash routes pageviews; without it a hash change is not a pageview', async () => {
  const v = await visit('data-allow-localhost data-allow-automation', '/hash');
  await v.page.evaluate(() => { location.hash = '#/settings'; });
  await eventually(() => v.beacons.filter((b) => b.body.event_type === 'pageview').length >= 2);
  const views = v.beacons.filter((b) => b.body.event_type === 'pageview').map((b) => new URL(b.body.url).hash);
  expect(views).toEqual(['', '#/settings']);
  await v.page.goto(v.site.url + '/plain');
  await v.page.evaluate(() => { location.hash = '#section'; });
  await v.page.evaluate(() => (window as any).tern.track('Marker'));
  await eventually(() => v.beacons.some((b) => b.body.event_name === 'Marker'));
  const plain = v.beacons.filter((b) => new URL(b.body.url).pathname === '/plain');
  expect(plain.map((b) => b.body.event_type)).toEqual(['pageview', 'custom']);
  expect(plain.every((b) => !b.body.url.includes('#'))).toBe(true);
  await v.context.close();
}, 60_000);

test('data-api sends to another endpoint base; automatic events can be switched off', async () => {
  const other = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok', { status: 202 }) });
  try {
    const api = `http://127.0.0.1:${other.port}/proxy`;
    const context = await newVisitorContext(browser);
    const seen: string[] = [];
    context.on('request', (r) => { if (r.method() === 'POST') seen.push(new URL(r.url()).pathname); });
    const page = await context.newPage();
    const s = fixture(`data-allow-localhost data-allow-automation data-api="${api}/" data-downloads="false" data-clicks="false" data-forms="false"`);
    await page.goto(s.url + '/');
    await page.click('#cta');
    await page.click('#download');
    await page.evaluate(() => (window as any).tern.track('Last'));
    await eventually(() => seen.length >= 3);
    // pageview, the queued "Early Call", "Last": no click and no download event.
    expect(seen).toEqual(['/proxy/api/v1/event', '/proxy/api/v1/event', '/proxy/api/v1/event']);
    await context.close();
  } finally {
    other.stop(true);
  }
}, 60_000);

test('a session survives across tabs and a new one starts after 30 idle minutes', async () => {
  const v = await visit('data-allow-localhost data-allow-automation');
  const tab2 = await v.context.newPage();
  await tab2.goto(v.site.url + '/plain');
  await eventually(() => v.beacons.length >= 3);
  const first = v.beacons.map((b) => b.body.session_id);
  expect(new Set(first).size).toBe(1);
  // Pretend the last activity was 31 minutes ago (the session record is "<id>.<last activity ms>").
  await tab2.evaluate(() => {
    const [id] = localStorage.getItem('tern_session')!.split('.');
    localStorage.setItem('tern_session', `${id}.${Date.now() - 31 * 60 * 1000}`);
    (window as any).tern.track('After Idle');
  });
  await eventually(() => v.beacons.some((b) => b.body.event_name === 'After Idle'));
  const idle = v.beacons.find((b) => b.body.event_name === 'After Idle')!.body;
  expect(idle.session_id).not.toBe(first[0]);
  expect(idle.visitor_uid).toBe(v.beacons[0].body.visitor_uid);
  await v.context.close();
}, 60_000);

test('bad API calls, blocked storage and a missing sendBeacon never throw into the page', async () => {
  const blockStorage = `
    for (const m of ['getItem', 'setItem', 'removeItem']) Storage.prototype[m] = () => { throw new DOMException('blocked', 'SecurityError'); };
    navigator.sendBeacon = undefined;`;
  const v = await visit('data-allow-localhost data-allow-automation', '/plain', blockStorage);
  const errors: string[] = [];
  v.page.on('pageerror', (e) => errors.push(e.message));
  const returned = await v.page.evaluate(() => {
    const t = (window as any).tern;
    t.purchase(null);
    t.identify();
    t('no-such-method', 1);
    t.track({ toString() { throw new Error('boom'); } });
    t.track('Still Works', { ok: true });
    return 'no exception';
  });
  expect(returned).toBe('no exception');
  await eventually(() => v.beacons.some((b) => b.body.event_name === 'Still Works'));
  expect(errors).toEqual([]);
  // fetch(keepalive) stood in for sendBeacon, still as text/plain; the IDs lived in memory.
  expect(v.beacons.every((b) => b.contentType.startsWith('text/plain'))).toBe(true);
  expect(v.beacons.filter((b) => b.endpoint === 'identify')).toEqual([]); // no user ID, nothing to link
  const ids = v.beacons.filter((b) => b.endpoint === 'event').map((b) => b.body.visitor_uid);
  expect(new Set(ids).size).toBe(1);
  await v.context.close();
}, 60_000);

test('a page that includes the script twice still counts one pageview', async () => {
  const v = await visit('data-allow-localhost data-allow-automation', '/double');
  await eventually(() => v.beacons.some((b) => b.body.event_name === 'After Load'));
  expect(v.beacons.map((b) => b.body.event_type)).toEqual(['pageview', 'custom']);
  await v.context.close();
}, 60_000);

// Both ways back: a reload (Playwright's default) and a restore from the back/forward cache.
for (const backForwardCache of [false, true]) {
  test(`coming back with the back button (${backForwardCache ? 'bfcache restore' : 'reload'}) is a pageview reporting the page left`, async () => {
    const b = backForwardCache ? await launchBrowser({ backForwardCache }) : browser;
    const context = await newVisitorContext(b);
    const beacons = recordBeacons(context, srv.url);
    const page = await context.newPage();
    const s = fixture('data-allow-localhost data-allow-automation');
    await page.goto(s.url + '/plain');
    await page.evaluate(() => { (window as any).marker = 'still here'; });
    await page.goto(s.url + '/thanks');
    await page.waitForTimeout(1100);
    await page.goBack({ waitUntil: 'commit' }); // a bfcache restore fires no load event
    await eventually(() => beacons.filter((x) => x.body.event_type === 'pageview').length >= 3);
    expect(await page.evaluate(() => (window as any).marker === 'still here')).toBe(backForwardCache);
    const views = beacons.filter((x) => x.body.event_type === 'pageview').map((x) => x.body);
    expect(views.map((x) => new URL(x.url).pathname)).toEqual(['/plain', '/thanks', '/plain']);
    expect(views[2].time_on_page).toBeGreaterThanOrEqual(1); // the visible second on /thanks
    await context.close();
    if (b !== browser) await b.close();
  }, 60_000);
}

test('data-pageviews="false" leaves pageviews to tern.pageview(); data-download-extensions and data-outbound apply', async () => {
  const v = await visit('data-allow-localhost data-allow-automation data-pageviews="false" data-outbound="false" data-download-extensions="txt"', '/');
  await v.page.evaluate(() => {
    document.addEventListener('click', (e) => e.preventDefault()); // stay on the page
    document.body.insertAdjacentHTML('beforeend',
      '<a id="notes" href="/files/notes.TXT">notes</a><a id="pdf" href="/files/other.pdf">pdf</a><a id="away" href="https://elsewhere.example/">away</a>');
  });
  for (const id of ['#notes', '#pdf', '#away']) await v.page.click(id);
  await v.page.evaluate(() => {
    history.pushState({}, '', '/manual');
    (window as any).tern.pageview();
    (window as any).tern.track('End');
  });
  await eventually(() => v.beacons.some((b) => b.body.event_name === 'End'));
  expect(v.beacons.map((b) => [b.body.event_type, b.body.event_name ?? null, new URL(b.body.url).pathname])).toEqual([
    ['custom', 'Early Call', '/'],
    ['custom', 'After Load', '/'],
    ['download', 'File Download', '/'],
    ['pageview', null, '/manual'],
    ['custom', 'End', '/manual'],
  ]);
  expect(v.beacons[2].body.properties).toEqual({ url: `${v.site.url}/files/notes.TXT` });
  await v.context.close();
}, 60_000);
