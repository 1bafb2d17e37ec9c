// Site settings → Export data and the retention setting, in Chromium over a seeded site: the form downloads a CSV
// (the session cookie, no token) whose rows are the API's export of the same range; a bad range is explained and
// downloads nothing; retention is saved through PATCH, shown after a reload with its deletion warning, checked
// for 1–120, and cleared back to "forever"; axe-core, screenshots, no console errors.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
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
const errors: string[] = [];
let sitePath: string;
let settingsUrl: string;

const ready = (page: Page) => page.locator('#export-table').waitFor();
const siteNow = async () => (await fx.acc.api.get(sitePath, fx.acc.token)).body.data;

beforeAll(async () => {
  sitePath = `/api/v1/organizations/${fx.acc.orgId}/sites/${fx.acc.site.id}`;
  await seedTraffic(fx.acc.api, fx.acc.token, fx.acc.orgId, fx.acc.site.id, fx.acc.site.public_id, 20, 2);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  app = await appPage(context, errors);
  settingsUrl = `${fx.srv.url}/sites/${fx.acc.site.id}/settings`;
  await logIn(app.page, fx.srv.url, fx.acc.email);
}, 90_000);
afterAll(async () => {
  await browser?.close();
}, 60_000);

describe('export data', () => {
  test('the form downloads a CSV whose rows are those of the API export', async () => {
    const { page } = app;
    await page.goto(settingsUrl);
    await ready(page);
    const from = page.locator('#export-from'), to = page.locator('#export-to');
    const today = (await to.inputValue());
    const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    await from.fill(day(7));
    await page.getByLabel('Table').selectOption('events');
    await page.getByLabel('Format').selectOption('csv');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toEndWith('.csv');
    const got = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    await page.getByRole('status').filter({ hasText: 'Download of events (CSV) started' }).waitFor();
    const api = await fx.acc.api.get(`${sitePath}/export?table=events&format=csv&from=${day(7)}&to=${today}`, fx.acc.token);
    expect(api.status).toBe(200);
    const want = api.text.trimEnd().split('\r\n');
    expect(got[0]).toBe(want[0]);
    expect(got[0]).toContain('visitor_id');
    // A week of the seeded pageviews: rows come file by file, so compare them as sets.
    expect(got.length).toBeGreaterThan(20);
    expect(got.slice(1).sort()).toEqual(want.slice(1).sort());
  }, 90_000);

  test('visits as NDJSON; a reversed range is explained and nothing downloads', async () => {
    const { page } = app;
    await page.goto(settingsUrl);
    await ready(page);
    const to = page.locator('#export-to');
    const today = await to.inputValue();
    await page.getByLabel('Table').selectOption('visits');
    await page.getByLabel('Format').selectOption('ndjson');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    const lines = readFileSync((await download.path())!, 'utf8').trim().split('\n');
    const api = await fx.acc.api.get(`${sitePath}/export?table=visits&format=ndjson&from=${await page.locator('#export-from').inputValue()}&to=${today}`, fx.acc.token);
    expect(lines.sort()).toEqual(api.text.trim().split('\n').sort());
    expect(JSON.parse(lines[0]!)).toHaveProperty('visit_id');

    let downloads = 0;
    page.on('download', () => downloads++);
    await page.locator('#export-from').fill(today);
    await to.fill(new Date(Date.parse(`${today}T00:00:00Z`) - 2 * 86_400_000).toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Download' }).click();
    const alert = page.locator('#export-error');
    expect(await alert.textContent()).toBe('The end date must be on or after the start date.');
    expect(await to.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('export-to');
    await page.waitForTimeout(500);
    expect(downloads).toBe(0);
  }, 90_000);
});

describe('retention', () => {
  test('saved through PATCH, shown after a reload with its warning; out of range refused; cleared to forever', async () => {
    const { page } = app;
    await page.goto(settingsUrl);
    await ready(page);
    const field = page.getByLabel('Keep data for (months)');
    expect(await field.inputValue()).toBe('');
    expect(await page.locator('.retention-warning').count()).toBe(0);
    await field.fill('0');
    await page.locator('#general').getByRole('button', { name: 'Save' }).click();
    await page.locator('#general').getByRole('alert').filter({ hasText: 'from 1 to 120' }).waitFor();
    expect((await siteNow()).retention_months).toBeNull();

    await field.fill('12');
    expect(await page.locator('.retention-warning').textContent()).toContain('older than 12 months are removed at the next compaction');
    await page.locator('#general').getByRole('button', { name: 'Save' }).click();
    await page.locator('#general').getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await siteNow()).retention_months).toBe(12);
    await page.reload();
    await ready(page);
    expect(await field.inputValue()).toBe('12');
    await page.locator('.retention-warning').waitFor();
    await auditPage(page, 'site-settings-data', () => ready(page));

    await field.fill('');
    await page.locator('#general').getByRole('button', { name: 'Save' }).click();
    await page.locator('#general').getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await siteNow()).retention_months).toBeNull();
    expect(await page.locator('.retention-warning').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 120_000);
});
