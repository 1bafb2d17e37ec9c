// The site dashboard over a seeded month of traffic: numbers match the API, period/comparison/interval changes,
// row click → filter chip → remove → back restores, Details search/sort/CSV, goals and funnels panels, the map,
// keyboard use, axe-core and screenshots in both themes and widths, and no console errors.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withServer } from '../helpers/fixture.ts';
import { launchBrowser } from '../tracker/browser.ts';
import { appPage, auditPage, newAppContext, type AppPage } from './browser.ts';
import { logIn, seedTraffic } from './seed.ts';

const fx = withServer({ accounts: { acc: { domain: 'shop.example.com' } } });

let browser: Browser;
let context: BrowserContext;
let app: AppPage;
/** Console errors of every page the tests opened (the last test asserts there are none). */
const errors: string[] = [];
let base: string;

const stats = async (q: string) => (await fx.acc.api.get(`/api/v1/organizations/${fx.acc.orgId}/sites/${fx.acc.site.id}/analytics/stats?${q}`, fx.acc.token)).body.data;

/** Every panel, card and the chart done loading. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('.panel').length >= 6 && !document.querySelector('[aria-busy="true"]') && !!document.querySelector('.uplot'));
}
const card = (page: Page, key: string) => page.locator(`[data-metric="${key}"] .metric-value`);
/** The card's text once it reads `want` (or after the wait, whatever it reads): a period change re-renders after
 * the URL moves, and under load `settled` can look before the new request has even marked the page busy. */
async function cardText(page: Page, key: string, want: string): Promise<string | null> {
  await page.waitForFunction(([k, w]) => document.querySelector(`[data-metric="${k}"] .metric-value`)?.textContent === w, [key, want] as const, { timeout: 20_000 }).catch(() => {});
  return card(page, key).textContent();
}
/** Waits until `selector` matches at least `n` elements (a count read at once races the rendering under load). */
const atLeast = (page: Page, selector: string, n: number) =>
  page.waitForFunction(([sel, min]) => document.querySelectorAll(sel as string).length >= (min as number), [selector, n] as const);

beforeAll(async () => {
  await seedTraffic(fx.acc.api, fx.acc.token, fx.acc.orgId, fx.acc.site.id, fx.acc.site.public_id);
  const sitePath = `/api/v1/organizations/${fx.acc.orgId}/sites/${fx.acc.site.id}`;
  await fx.acc.api.post(`${sitePath}/goals`, { name: 'Signup', type: 'pageview', path: '/signup' }, fx.acc.token);
  await fx.acc.api.post(`${sitePath}/funnels`, { name: 'Checkout', steps: [{ type: 'pageview', value: '/' }, { type: 'pageview', value: '/pricing' }, { type: 'pageview', value: '/signup' }] }, fx.acc.token);
  await fx.acc.api.post(`${sitePath}/annotations`, { date: new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10), text: 'Launched pricing page' }, fx.acc.token);
  browser = await launchBrowser();
  context = await newAppContext(browser);
  app = await appPage(context, errors);
  base = `${fx.srv.url}/sites/${fx.acc.site.id}`;
  await logIn(app.page, fx.srv.url, fx.acc.email);
}, 90_000);
// Each test gets a fresh page (same signed-in context) and opens its own URL: nothing a failed test left behind
// (an open dialog, a period in the URL, a pending request) reaches the next one.
beforeEach(async () => {
  await app.page.close();
  app = await appPage(context, errors);
});
afterAll(async () => {
  await browser?.close();
});

describe('site dashboard', () => {
  test('cards match the API, panels fill, the chart draws with its annotation', async () => {
    const { page } = app;
    await page.goto(base);
    await settled(page);
    const api = await stats('period=30d');
    { const want = String(api.metrics.visitors); expect(await cardText(page, 'visitors', want)).toBe(want); }
    { const want = String(api.metrics.pageviews); expect(await cardText(page, 'pageviews', want)).toBe(want); }
    { const want = `${api.metrics.bounce_rate}%`; expect(await cardText(page, 'bounce_rate', want)).toBe(want); }
    const pages = page.locator('section[aria-label="Top pages"]');
    await expect(pages.getByRole('button', { name: '/pricing' }).isVisible()).resolves.toBe(true);
    await page.locator('section[aria-label="Locations"] .bar-label').first().waitFor();
    await page.locator('.annotation').first().waitFor();
    expect(await page.locator('.annotation').count()).toBe(1);
    expect(await page.locator('.annotation').getAttribute('aria-label')).toContain('Launched pricing page');
    await page.locator('section[aria-label="Goals"]').getByRole('button', { name: 'Signup' }).waitFor();
    await page.locator('section[aria-label="Funnels"] .funnel-step').nth(2).waitFor();
    await auditPage(page, 'dashboard', () => settled(page));
  }, 120_000);

  test('period, ← →, comparison and interval live in the URL', async () => {
    const { page } = app;
    await page.goto(base);
    await settled(page);
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    await page.getByRole('button', { name: /^Last 7 days/ }).click();
    await page.waitForURL(/period=7d/);
    await settled(page);
    { const want = String((await stats('period=7d')).metrics.visitors); expect(await cardText(page, 'visitors', want)).toBe(want); }
    await page.getByRole('button', { name: 'Previous period' }).click();
    await page.waitForURL(/period=7d&date=\d{4}-\d{2}-\d{2}/);
    const date = new URL(page.url()).searchParams.get('date')!;
    await settled(page);
    { const want = String((await stats(`period=7d&date=${date}`)).metrics.visitors); expect(await cardText(page, 'visitors', want)).toBe(want); }
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.searchParams.get('period') === '7d' && !u.searchParams.has('date'));
    await page.getByLabel('Comparison').selectOption('year');
    await page.waitForURL(/compare=year/);
    await page.getByRole('group', { name: 'Interval' }).getByRole('button', { name: 'Hour' }).click();
    await page.waitForURL(/interval=hour/);
    await settled(page);
    await page.reload();
    await settled(page);
    expect(await page.getByLabel('Comparison').inputValue()).toBe('year');
    expect(await page.getByRole('button', { name: 'Hour' }).getAttribute('aria-pressed')).toBe('true');
    await page.locator('[data-metric="pageviews"]').click();
    await page.waitForURL(/metric=pageviews/);
    await page.getByRole('button', { name: 'Show data table' }).click();
    await atLeast(page, '.chart-table tbody tr', 7 * 24);
    expect(await page.locator('.chart-table tbody tr').count()).toBe(7 * 24);
    // Drag across the chart of the last 30 days: a custom period of the days under the selection.
    await page.goto(base);
    await settled(page);
    const over = (await page.locator('.uplot .u-over').boundingBox())!;
    await page.mouse.move(over.x + over.width * 0.3, over.y + over.height / 2);
    await page.mouse.down();
    await page.mouse.move(over.x + over.width * 0.6, over.y + over.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.waitForURL(/period=custom&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
    const zoomed = new URL(page.url()).searchParams;
    const days = (Date.parse(zoomed.get('to')!) - Date.parse(zoomed.get('from')!)) / 86_400_000 + 1;
    expect(days).toBeGreaterThanOrEqual(7);
    expect(days).toBeLessThanOrEqual(11);
    await settled(page);
    await page.goto(`${base}?period=custom&from=2026-01-01&to=2026-01-31`);
    await settled(page);
    await page.locator('.period-button', { hasText: 'Jan 1' }).waitFor();
  }, 120_000);

  test('a row click filters, the chip can be removed, back restores the filter', async () => {
    const { page } = app;
    await page.goto(base);
    await settled(page);
    await page.locator('section[aria-label="Top pages"]').getByRole('button', { name: '/pricing' }).click();
    await page.waitForURL(/f=page%7Cis%7C%2Fpricing/);
    await settled(page);
    const filtered = await stats(`period=30d&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'page', operator: 'is', value: '/pricing' }]))}`);
    { const want = String(filtered.metrics.visitors); expect(await cardText(page, 'visitors', want)).toBe(want); }
    await expect(page.getByRole('group', { name: 'Filters' }).textContent()).resolves.toContain('/pricing');
    await page.getByRole('button', { name: 'Remove filter Page' }).click();
    await page.waitForURL((u) => !u.searchParams.has('f'));
    await settled(page);
    await page.goBack();
    await page.waitForURL(/f=page%7Cis%7C%2Fpricing/);
    await page.getByRole('button', { name: /Edit filter Page is \/pricing/ }).waitFor();
    await page.getByRole('button', { name: /Edit filter Page/ }).click();
    await page.getByLabel('Operator').selectOption('contains');
    await page.getByLabel('Value', { exact: true }).fill('pri');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await page.waitForURL(/f=page%7Ccontains%7Cpri/);
    await settled(page);
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => !u.searchParams.has('f'));
  }, 120_000);

  test('an API error becomes a readable message in the panels it hit', async () => {
    const { page } = app;
    const errorsBefore = errors.length;
    await page.goto(`${base}?f=${encodeURIComponent('bogus|is|x')}`);
    const msg = page.locator('section[aria-label="Top pages"] [role="alert"]');
    await msg.waitFor();
    expect(await msg.textContent()).toContain('bogus');
    // Each panel's request fails on its own schedule: wait for the four panels rather than count the first at once.
    await atLeast(page, '.panel-error', 4);
    await auditPage(page, 'dashboard-error', () => atLeast(page, '.panel-error', 4));
    // The failed requests are the expected 400s; drop them from the no-console-errors check.
    await page.close();
    errors.splice(errorsBefore);
  }, 60_000);

  test('Details: search, sort by a column, page, CSV of what it shows; keyboard only', async () => {
    const { page } = app;
    await page.goto(base);
    await settled(page);
    const panel = page.locator('section[aria-label="Top pages"]');
    await panel.getByRole('button', { name: 'Details' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Page details' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('details-search');
    await dialog.locator('tbody tr td .link-button').first().waitFor();
    await page.keyboard.type('docs');
    await page.waitForFunction(() => {
      const names = [...document.querySelectorAll('[role=dialog] tbody .link-button')].map((b) => b.textContent!);
      return names.length > 0 && names.every((n) => n.includes('docs'));
    });
    expect(await dialog.locator('tbody tr').count()).toBe(2);
    await dialog.getByRole('button', { name: /^Page/ }).click();
    await dialog.locator('th[aria-sort="ascending"]').first().waitFor();
    const names = await dialog.locator('tbody .link-button').allTextContents();
    expect(names).toEqual(['/docs/api', '/docs/start']);
    await auditPage(page, 'dashboard-details');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r\n/);
    expect(csv[0]).toStartWith('Page,Visitors,');
    expect(csv.slice(1).map((l) => l.split(',')[0])).toEqual(['/docs/api', '/docs/start']);
    // Focus stays inside the dialog: Tab from the last control wraps to the first.
    for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Details');
  }, 120_000);

  test('keyboard: period shortcuts, the period menu opens, moves and closes on Esc, focus is visible', async () => {
    const { page } = app;
    await page.goto(base);
    await settled(page);
    await page.keyboard.press('w');
    await page.waitForURL(/period=7d/);
    const button = page.locator('.period-button');
    await button.focus();
    expect(await button.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Choose a period' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Yesterday');
    await page.keyboard.press('Escape');
    await page.getByRole('group', { name: 'Choose a period' }).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('period-button'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('period') === 'day' && !u.searchParams.has('date'));
    await page.locator('.period-button', { hasText: 'Today' }).waitFor();
  }, 60_000);

  test('the map draws countries with visitors; tabs are kept in the URL', async () => {
    const { page } = app;
    await page.goto(base);
    await settled(page);
    const loc = page.locator('section[aria-label="Locations"]');
    await loc.getByRole('button', { name: 'Map' }).click();
    await page.waitForURL(/locations=map/);
    await atLeast(page, 'section[aria-label="Locations"] svg.map path.has-data', 3);
    await page.locator('section[aria-label="Top sources"]').getByRole('button', { name: 'Sources' }).click();
    await page.waitForURL(/sources=sources/);
    await page.reload();
    await settled(page);
    expect(await page.locator('section[aria-label="Top sources"]').getByRole('button', { name: 'Sources' }).getAttribute('aria-pressed')).toBe('true');
    await auditPage(page, 'dashboard-map', () => settled(page));
    expect(errors).toEqual([]);
  }, 120_000);
});
