// The Properties panel over a month of traffic plus the tracker fixture's custom events (a [data-track] click sends
// plan=pro, position=hero; the queue stub sends source=queue): keys from the query API, values with bars, a click
// filters and the cards match the API, Details, the key in the URL, no panel on a shared link; the custom range
// through the date inputs with its validation messages; axe-core, screenshots, no console errors.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withServer } from '../helpers/fixture.ts';
import { launchBrowser, newVisitorContext } from '../tracker/browser.ts';
import { startFixtureSite, type FixtureSite } from '../tracker/fixture-site.ts';
import { appPage, auditPage, newAppContext, type AppPage } from './browser.ts';
import { logIn, seedTraffic } from './seed.ts';

const fx = withServer({ accounts: { acc: { domain: 'shop.example.com' } } });

let browser: Browser;
let context: BrowserContext;
let fixture: FixtureSite | undefined;
let app: AppPage;
const errors: string[] = [];
let base: string;
let sitePath: string;

const stats = async (q: string) => (await fx.acc.api.get(`${sitePath}/analytics/stats?${q}`, fx.acc.token)).body.data;
const query = async (body: Record<string, unknown>) => {
  const r = await fx.acc.api.post(`${sitePath}/query`, { date_range: '30d', ...body }, fx.acc.token);
  if (r.status !== 200) throw new Error(r.text);
  return r.body.data.results as { dimensions: string[]; metrics: number[] }[];
};
const settled = (page: Page) =>
  page.waitForFunction(() => document.querySelectorAll('.panel').length >= 7 && !document.querySelector('[aria-busy="true"]') && !!document.querySelector('.uplot'));
const card = (page: Page, key: string) => page.locator(`[data-metric="${key}"] .metric-value`);
const panel = (page: Page) => page.locator('section[aria-label="Properties"]');

beforeAll(async () => {
  sitePath = `/api/v1/organizations/${fx.acc.orgId}/sites/${fx.acc.site.id}`;
  await seedTraffic(fx.acc.api, fx.acc.token, fx.acc.orgId, fx.acc.site.id, fx.acc.site.public_id, 30, 3);
  browser = await launchBrowser();
  // Two visitors of the customer's page: each loads it (the queued 'Early Call' event) and clicks the tracked button.
  fixture = startFixtureSite(fx.srv.url, fx.acc.site.public_id, 'data-allow-localhost data-allow-automation');
  for (let i = 0; i < 2; i++) {
    const visitor = await newVisitorContext(browser);
    const v = await visitor.newPage();
    await v.goto(`${fixture.url}/`);
    await v.locator('#cta').click();
    await v.waitForTimeout(300);
    await visitor.close();
  }
  // The events reach the store within the loader's interval.
  for (let i = 0; i < 60; i++) {
    const keys = (await query({ metrics: ['visitors'], dimensions: ['event:props'] })).map((r) => r.dimensions[0]);
    if (keys.includes('plan') && keys.includes('source')) break;
    await Bun.sleep(500);
  }
  context = await newAppContext(browser);
  app = await appPage(context, errors);
  base = `${fx.srv.url}/sites/${fx.acc.site.id}`;
  await logIn(app.page, fx.srv.url, fx.acc.email);
}, 120_000);
afterAll(async () => {
  fixture?.stop();
  await browser?.close();
}, 60_000);

describe('Properties panel', () => {
  test('keys and values from the query API; a value click filters and the cards match the API', async () => {
    const { page } = app;
    const keys = (await query({ metrics: ['events'], dimensions: ['event:props'] })).map((r) => r.dimensions[0]);
    expect(keys).toContain('plan');
    expect(keys).toContain('position');
    await page.goto(base);
    await settled(page);
    const picker = panel(page).getByLabel('Property');
    // The same keys; their order (by events) may move if an event lands between the two reads.
    expect((await picker.locator('option').allTextContents()).sort()).toEqual([...keys].sort());
    await picker.selectOption('plan');
    await page.waitForURL(/prop=plan/);
    const row = panel(page).locator('tbody tr', { hasText: 'pro' });
    await row.waitFor();
    const [pro] = await query({ metrics: ['visitors', 'events'], dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:plan', ['(none)']]] });
    expect(pro!.dimensions[0]).toBe('pro');
    expect(await row.locator('td.num').allTextContents()).toEqual([String(pro!.metrics[0]), String(pro!.metrics[1]), '100%']);

    await panel(page).getByRole('button', { name: 'pro', exact: true }).click();
    await page.waitForURL(/f=prop%3Aplan%7Cis%7Cpro/);
    await settled(page);
    const filtered = await stats(`period=30d&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'prop:plan', operator: 'is', value: 'pro' }]))}`);
    expect(filtered.metrics.visitors).toBe(2);
    expect(await card(page, 'visitors').textContent()).toBe(String(filtered.metrics.visitors));
    expect(await card(page, 'pageviews').textContent()).toBe(String(filtered.metrics.pageviews));
    await page.getByRole('button', { name: 'Edit filter Property plan is pro' }).waitFor();
    // The other panels follow the filter: only the fixture's visitors remain.
    const pages = await fx.acc.api.get(`${sitePath}/analytics/pages?period=30d&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'prop:plan', operator: 'is', value: 'pro' }]))}`, fx.acc.token);
    const top = page.locator('section[aria-label="Top pages"] tbody tr').first();
    expect(await top.locator('.bar-label').textContent()).toBe(pages.body.data.results[0].name);
    await auditPage(page, 'dashboard-properties', () => settled(page));

    // Back to the unfiltered view; the key stays in the URL across a reload.
    await page.getByRole('button', { name: 'Remove filter Property plan' }).click();
    await page.waitForURL((u) => !u.searchParams.has('f'));
    await page.reload();
    await settled(page);
    expect(await panel(page).getByLabel('Property').inputValue()).toBe('plan');
  }, 120_000);

  test('Details lists the values with their visits, and a value there filters too', async () => {
    const { page } = app;
    await page.goto(`${base}?prop=position`);
    await settled(page);
    await panel(page).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'position details' });
    await dialog.getByRole('button', { name: 'hero' }).waitFor();
    const [hero] = await query({ metrics: ['visitors', 'events', 'percentage', 'visits'], dimensions: ['event:props:position'], filters: [['is_not', 'event:props:position', ['(none)']]] });
    expect(hero!.dimensions[0]).toBe('hero');
    const cells = await dialog.locator('tbody tr').first().locator('td.num').allTextContents();
    // Visitors, events, %, visits (then bounce rate and duration).
    expect(cells.slice(0, 4)).toEqual([String(hero!.metrics[0]), String(hero!.metrics[1]), '100%', String(hero!.metrics[3])]);
    await dialog.getByRole('button', { name: 'hero' }).click();
    await page.waitForURL(/f=prop%3Aposition%7Cis%7Chero/);
    await dialog.waitFor({ state: 'detached' });
  }, 60_000);

  test('the key shown last on this site comes back without ?prop=, its values asked for beside the key list', async () => {
    const { page } = app;
    await page.goto(`${base}?prop=source`);
    await settled(page);
    // The page's POST …/query requests, in the order they went out, with when each answered.
    const sent: { body: string; at: number; done?: number }[] = [];
    const t0 = Date.now();
    page.on('request', (r) => { if (r.url().endsWith('/query') && r.method() === 'POST') sent.push({ body: r.postData() ?? '', at: Date.now() - t0 }); });
    page.on('requestfinished', (r) => { const s = sent.find((x) => x.body === r.postData() && x.done === undefined); if (s) s.done = Date.now() - t0; });
    await page.goto(base);
    await settled(page);
    expect(await panel(page).getByLabel('Property').inputValue()).toBe('source');
    const [values] = await query({ metrics: ['visitors'], dimensions: ['event:props:source'], filters: [['is_not', 'event:props:source', ['(none)']]] });
    await panel(page).locator('tbody tr', { hasText: values!.dimensions[0] }).waitFor();
    const keyList = sent.find((x) => x.body.includes('"dimensions":["event:props"]'));
    const keyValues = sent.find((x) => x.body.includes('"dimensions":["event:props:source"]'));
    expect(keyList).toBeDefined();
    expect(keyValues).toBeDefined();
    // No waterfall: the values went out before the key list answered.
    expect(keyValues!.at).toBeLessThanOrEqual(keyList!.done!);
    // A key the period lacks is not kept from memory: the panel falls back to the period's first key.
    await page.evaluate((id) => localStorage.setItem(`tern-cache-prop-key-${id}`, JSON.stringify('no-such-key')), fx.acc.site.id);
    await page.goto(base);
    await settled(page);
    const first = (await query({ metrics: ['events'], dimensions: ['event:props'] }))[0]!.dimensions[0];
    expect(await panel(page).getByLabel('Property').inputValue()).toBe(first);
    expect(errors).toEqual([]);
  }, 60_000);

  test('a shared link shows no Properties panel (it cannot call the query API)', async () => {
    const link = await fx.acc.api.post(`${sitePath}/shared-links`, { name: 'Public' }, fx.acc.token);
    expect(link.status).toBe(201);
    const guest = await newAppContext(browser);
    const g = await appPage(guest, errors);
    await g.page.goto(`${fx.srv.url}${link.body.data.url}`);
    await g.page.locator('section[aria-label="Funnels"]').waitFor();
    await g.page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    expect(await g.page.locator('section[aria-label="Properties"]').count()).toBe(0);
    // The revenue card reads as on the owner's dashboard: one money format.
    const shared = await g.page.locator('[data-metric="revenue"] .metric-value').textContent();
    await guest.close();
    await app.page.goto(base);
    await settled(app.page);
    expect(await card(app.page, 'revenue').textContent()).toBe(shared);
    expect(shared).toMatch(/^\$[\d,]+$/);
  }, 60_000);
});

describe('custom range', () => {
  test('the date inputs set a custom period; a reversed or future range is explained, not applied', async () => {
    const { page } = app;
    await page.goto(base);
    await settled(page);
    await page.locator('.period-button').click();
    await page.getByRole('button', { name: 'Custom range…' }).click();
    const from = page.getByLabel('From', { exact: true }), to = page.getByLabel('To', { exact: true });
    const today = await to.getAttribute('max');
    const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    await from.fill(day(3));
    await to.fill(day(10));
    await page.getByRole('button', { name: 'Apply' }).click();
    const alert = page.getByRole('group', { name: 'Choose a period' }).getByRole('alert');
    expect(await alert.textContent()).toBe('The end date must be on or after the start date.');
    expect(await to.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).searchParams.has('from')).toBe(false);
    await auditPage(page, 'dashboard-custom-range', () => alert.waitFor());
    await to.fill(day(1));
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('period') === 'custom' && u.searchParams.get('from') === day(3) && u.searchParams.get('to') === day(1));
    await settled(page);
    const api = await stats(`period=custom&from=${day(3)}&to=${day(1)}`);
    expect(await card(page, 'visitors').textContent()).toBe(String(api.metrics.visitors));
    await page.locator('.period-button', { hasText: '–' }).waitFor();
    expect(errors).toEqual([]);
  }, 90_000);
});
