// The pages around the dashboard: site settings (goal → Goals panel, funnel → funnel page, annotation), visitors
// and a timeline, API keys (shown once, revoke), organization, a password-protected shared link opened logged out,
// embed mode, revocation, deleting the site with a typed confirmation; axe-core and screenshots on each page.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withServer } from '../helpers/fixture.ts';
import { launchBrowser } from '../tracker/browser.ts';
import { appPage, auditPage, expectAccessible, newAppContext, type AppPage } from './browser.ts';
import { logIn, seedTraffic } from './seed.ts';

const fx = withServer({ accounts: { acc: { domain: 'shop.example.com' } } });

let browser: Browser;
let context: BrowserContext;
let app: AppPage;
let shareUrl = '';

const settled = (page: Page) => page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && !document.body.textContent?.includes('Loading…'));

beforeAll(async () => {
  await seedTraffic(fx.acc.api, fx.acc.token, fx.acc.orgId, fx.acc.site.id, fx.acc.site.public_id, 10, 2);
  await fx.acc.api.post('/api/v1/identify', { site_id: fx.acc.site.public_id, visitor_uid: 'v3', user_id: 'cust-42', name: 'Grace Hopper', email: 'grace@example.com' });
  browser = await launchBrowser();
  context = await newAppContext(browser);
  app = await appPage(context);
  await logIn(app.page, fx.srv.url, fx.acc.email);
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

describe('settings, visitors, keys, organization, shared links', () => {
  test('create a goal and a funnel in settings; the dashboard shows them', async () => {
    const { page } = app;
    const base = `${fx.srv.url}/sites/${fx.acc.site.id}`;
    await page.goto(`${base}/settings`);
    await page.getByLabel('Goal name').fill('Pricing visit');
    await page.getByLabel('Page path').fill('/pricing');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await page.getByText('visits /pricing').waitFor();
    await page.getByRole('button', { name: 'Edit goal Pricing visit' }).click();
    await page.getByRole('dialog').getByLabel('Goal name').fill('Saw pricing');
    await page.getByRole('button', { name: 'Save goal' }).click();
    await page.getByText('Saw pricing').waitFor();
    await page.getByRole('button', { name: 'Archive goal Saw pricing' }).click();
    await page.getByRole('button', { name: 'Unarchive goal Saw pricing' }).click();
    await page.getByRole('button', { name: 'Archive goal Saw pricing' }).waitFor();
    await page.getByLabel('Funnel name').fill('To signup');
    await page.getByLabel('Path of step 1').fill('/');
    await page.getByLabel('Path of step 2').fill('/pricing');
    await page.getByRole('button', { name: '+ Add step' }).click();
    await page.getByLabel('Path of step 3').fill('/signup');
    await page.getByRole('button', { name: 'Create funnel' }).click();
    await page.getByRole('link', { name: 'To signup' }).waitFor();
    await page.getByLabel('Note').fill('Big launch');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('#annotations').getByText('Big launch').waitFor();
    await settled(page);
    // The section nav starts at the top of the form and stays in view while the long form scrolls.
    const toc = page.getByRole('navigation', { name: 'Settings sections' });
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(Math.abs((await toc.boundingBox())!.y - (await page.locator('.settings-grid').boundingBox())!.y)).toBeLessThan(2);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 600);
    const stuck = (await toc.boundingBox())!;
    expect(stuck.y).toBeGreaterThanOrEqual(0);
    expect(stuck.y + stuck.height).toBeLessThanOrEqual(900);
    await auditPage(page, 'site-settings', () => settled(page));

    await page.goto(base);
    await page.locator('section[aria-label="Goals"]').getByRole('button', { name: 'Saw pricing' }).click();
    await page.waitForURL(/f=goal%7Cis%7C/);
    await page.locator('[data-metric="conversions"]').waitFor();
    await page.locator('[data-metric="conversion_rate"]').waitFor();
    await page.locator('section[aria-label="Funnels"]').getByRole('link', { name: 'Open funnel' }).click();
    await page.waitForURL(/\/funnels\//);
    await page.locator('.funnel-step').nth(2).waitFor();
    await auditPage(page, 'funnel', () => settled(page));
  }, 120_000);

  test('visitors: search, open a profile with its timeline grouped by visit', async () => {
    const { page } = app;
    await page.goto(`${fx.srv.url}/sites/${fx.acc.site.id}/visitors`);
    await page.locator('tbody tr td a').first().waitFor();
    await auditPage(page, 'visitors', () => settled(page));
    await page.getByLabel('Search visitors').fill('grace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/search=grace/);
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await page.locator('section.visit').first().waitFor();
    await page.locator('.event').first().waitFor();
    await auditPage(page, 'visitor', () => settled(page));
    await page.goBack();
    await page.waitForURL(/visitors\?search=grace/);
  }, 120_000);

  test('API keys: created key shown once with a warning, listed masked, revoked after confirmation', async () => {
    const { page } = app;
    await page.goto(`${fx.srv.url}/settings/organization`);
    await page.getByLabel('Plan').selectOption('startup');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    await auditPage(page, 'organization');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Reporting');
    await page.getByLabel('visitors:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!;
    expect(key).toMatch(/^sk_live_[0-9a-f]{32}$/);
    await page.getByText('it will not be shown again').waitFor();
    const check = await fx.acc.api.get(`/api/v1/organizations/${fx.acc.orgId}/sites/${fx.acc.site.id}/analytics/stats`, key);
    expect(check.status).toBe(200);
    await auditPage(page, 'api-keys');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.locator('#new-key').waitFor({ state: 'detached' });
    await page.getByText(`****${key.slice(-4)}`).waitFor();
    await page.getByRole('button', { name: 'Revoke Reporting' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No keys yet.').waitFor();
    expect((await fx.acc.api.get(`/api/v1/organizations/${fx.acc.orgId}/sites/${fx.acc.site.id}/analytics/stats`, key)).status).toBe(401);
  }, 120_000);

  test('a password-protected shared link opens logged out; embed mode; revoked links stop working', async () => {
    const { page } = app;
    await page.goto(`${fx.srv.url}/sites/${fx.acc.site.id}/settings`);
    await page.getByLabel('Name', { exact: true }).first().waitFor();
    await page.locator('#link-name').fill('Investors');
    await page.getByLabel('Password (optional)').fill('open sesame');
    await page.getByRole('button', { name: 'Create link' }).click();
    shareUrl = (await page.locator('#new-link').textContent())!;
    expect(shareUrl).toMatch(new RegExp(`^${fx.srv.url}/share/shl_`));

    const guest = await newAppContext(browser);
    const g = await appPage(guest);
    await g.page.goto(shareUrl);
    await g.page.getByRole('heading', { name: 'This dashboard is protected' }).waitFor();
    await auditPage(g.page, 'share-password');
    await g.page.getByLabel('Password').fill('wrong password');
    await g.page.getByRole('button', { name: 'View dashboard' }).click();
    await g.page.getByRole('alert').waitFor();
    await g.page.getByLabel('Password').fill('open sesame');
    await g.page.getByRole('button', { name: 'View dashboard' }).click();
    await g.page.locator('[data-metric="visitors"] .metric-value').waitFor();
    await settled(g.page);
    expect(await g.page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    expect(await g.page.locator('.topnav').count()).toBe(1);
    await auditPage(g.page, 'share', () => settled(g.page));
    await g.page.goto(`${shareUrl}?embed=true&theme=dark`);
    await g.page.locator('[data-metric="visitors"] .metric-value').waitFor();
    expect(await g.page.locator('.topnav').count()).toBe(0);
    expect(await g.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await settled(g.page);
    await expectAccessible(g.page, 'share embed (dark)');
    await g.page.screenshot({ path: `${import.meta.dir}/../.screenshots/share-embed-1280-dark.png`, fullPage: true });
    await g.page.setViewportSize({ width: 390, height: 844 });
    await g.page.screenshot({ path: `${import.meta.dir}/../.screenshots/share-embed-390-dark.png`, fullPage: true });
    await g.page.goto(`${shareUrl}?embed=true&theme=light`);
    await g.page.locator('[data-metric="visitors"] .metric-value').waitFor();
    await settled(g.page);
    expect(await g.page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await expectAccessible(g.page, 'share embed (light)');
    await g.page.screenshot({ path: `${import.meta.dir}/../.screenshots/share-embed-390-light.png`, fullPage: true });

    await page.getByRole('button', { name: 'Revoke link Investors' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke link' }).click();
    await page.getByText('No shared links.').waitFor();
    await g.page.goto(shareUrl);
    await g.page.getByRole('heading', { name: 'Link not available' }).waitFor();
    expect(g.errors.filter((e) => !/401|404/.test(e))).toEqual([]);
    await guest.close();
  }, 120_000);

  test('delete the site after typing its domain', async () => {
    const { page } = app;
    await page.goto(`${fx.srv.url}/sites/${fx.acc.site.id}/settings`);
    await page.getByRole('button', { name: 'Delete site…' }).click();
    const confirm = page.getByRole('dialog').getByRole('button', { name: 'Delete site for good' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel('Type shop.example.com to confirm').fill('shop.example.com');
    await confirm.click();
    await page.waitForURL(`${fx.srv.url}/`);
    await page.getByRole('heading', { name: 'No sites yet' }).waitFor();
    expect(app.errors).toEqual([]);
  }, 60_000);
});
