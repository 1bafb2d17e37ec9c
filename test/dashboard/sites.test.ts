// Register → add a site → the snippet and live check → a fixture page with the tracker sends events → "receiving
// events" → the sites list shows the site; login/logout and the redirect to /login and back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { withServer } from '../helpers/fixture.ts';
import { launchBrowser, newVisitorContext } from '../tracker/browser.ts';
import { startFixtureSite, type FixtureSite } from '../tracker/fixture-site.ts';
import { appPage, auditPage, newAppContext, type AppPage } from './browser.ts';

const fx = withServer();

let browser: Browser;
let context: BrowserContext;
let fixture: FixtureSite | undefined;
let app: AppPage;
const email = `owner${Date.now()}@example.com`;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newAppContext(browser);
  app = await appPage(context);
}, 60_000);
afterAll(async () => {
  fixture?.stop();
  await browser?.close();
}, 60_000);

describe('account and sites pages', () => {
  test('a page opened without a session leads to /login, and /register comes back to it', async () => {
    const { page } = app;
    await page.goto(`${fx.srv.url}/settings/api-keys`);
    await page.waitForURL(/\/login\?next=%2Fsettings%2Fapi-keys$/);
    await auditPage(page, 'login', () => page.getByRole('heading', { name: 'Log in' }).waitFor());
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL(/\/register\?next=/);
    await auditPage(page, 'register', () => page.getByRole('heading', { name: 'Create your account' }).waitFor());
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${fx.srv.url}/settings/api-keys`);
    // The session is the HttpOnly cookie: nothing script can read holds it.
    const cookies = await context.cookies(fx.srv.url);
    expect(cookies.find((c) => c.name === 'tern_session')?.httpOnly).toBe(true);
    expect(await page.evaluate(() => document.cookie + JSON.stringify(localStorage) + JSON.stringify(sessionStorage))).not.toContain('ses_');
  }, 120_000);

  test('add a site: snippet with copy button, live check turns to receiving events', async () => {
    const { page } = app;
    await page.goto(`${fx.srv.url}/`);
    await page.getByRole('heading', { name: 'No sites yet' }).waitFor();
    await auditPage(page, 'sites-empty');
    await page.getByRole('link', { name: '+ Add site' }).click();
    await page.waitForURL(/\/sites\/new$/);
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await page.getByLabel('Time zone').inputValue()).toBe(zone);
    await auditPage(page, 'site-new');
    await page.getByLabel('Domain').fill('https://shop.example.com/');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByRole('button', { name: 'Add site' }).click();
    const snippet = await page.locator('.snippet pre').textContent();
    const publicId = snippet!.match(/data-site="(pk_live_\w+)"/)![1];
    expect(snippet).toContain(`${fx.srv.url}/tracker.js`);
    await page.getByText('Waiting for the first event').waitFor();
    await auditPage(page, 'site-snippet');
    // The dashboard of a site without events shows the snippet and the same live check.
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.getByRole('heading', { name: 'No events yet' }).waitFor();
    expect(await page.locator('.snippet pre').textContent()).toBe(snippet);
    await page.getByText('Waiting for the first event').waitFor();
    await auditPage(page, 'dashboard-empty');
    fixture = startFixtureSite(fx.srv.url, publicId, 'data-allow-localhost data-allow-automation');
    const visitor = await newVisitorContext(browser);
    const v = await visitor.newPage();
    await v.goto(`${fixture.url}/`);
    await v.goto(`${fixture.url}/plain`);
    await visitor.close();
    await page.getByText('Receiving events').waitFor({ timeout: 60_000 });
    // Then the dashboard itself, every request run again: the chart's today holds the visitor.
    await page.locator('[data-metric="visitors"] .metric-value').waitFor();
    await page.getByRole('button', { name: 'Show data table' }).click();
    await page.locator('.chart-table td', { hasText: '(so far)' }).waitFor();
    expect(await page.locator('.chart-table tr', { hasText: '(so far)' }).locator('td.num').first().textContent()).toBe('1');
  }, 120_000);

  test('the sites list shows the site with its unique visitors of today and yesterday', async () => {
    const { page } = app;
    await page.goto(`${fx.srv.url}/settings/organization`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await page.waitForURL(`${fx.srv.url}/`);
    const card = page.locator('.site-card', { hasText: 'shop.example.com' });
    await card.locator('.site-visitors').waitFor();
    const shown = Number(await card.locator('.site-visitors').textContent());
    expect(shown).toBeGreaterThanOrEqual(1);
    expect(await card.textContent()).toMatch(/visitors? today and yesterday/);
    // The same number as the API's unique visitors over the two days (not a sum of hourly uniques).
    const siteId = (await card.getAttribute('href'))!.split('/').pop()!;
    const api = await page.evaluate(async (id) => {
      const get = async (path: string) => (await (await fetch(`/api/v1${path}`)).json()).data;
      const orgId = (await get('/auth/me')).organizations[0].id;
      const stats = `/organizations/${orgId}/sites/${id}/analytics/stats`;
      const today: string = (await get(`${stats}?period=day`)).range.to;
      const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      return (await get(`${stats}?period=custom&from=${yesterday}&to=${today}`)).metrics.visitors as number;
    }, siteId);
    expect(shown).toBe(api);
    await auditPage(page, 'sites');
  }, 120_000);

  test('log out, then log in again returns to the page asked for', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${fx.srv.url}/sites/new`);
    await page.waitForURL(/\/login\?next=%2Fsites%2Fnew$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').getByText('Invalid email or password').waitFor();
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${fx.srv.url}/sites/new`);
    expect(app.errors.filter((e) => !e.includes('401'))).toEqual([]);
  }, 120_000);
});
