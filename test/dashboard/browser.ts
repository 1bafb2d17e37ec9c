// Chromium helpers of the dashboard tests: pages that record console errors, axe-core checks, and screenshots of a
// page at 1280 and 390 px in the light and the dark theme (written to the git-ignored test/.screenshots/).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'bun:test';

const axeSource = readFileSync(join(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8');
export const SHOTS = join(import.meta.dir, '../.screenshots');

export type AppPage = { page: Page; errors: string[] };

/**
 * A page whose console errors and uncaught exceptions are collected (every test asserts there are none); pass
 * `errors` to collect into a list shared by several pages.
 */
export async function appPage(context: BrowserContext, errors: string[] = []): Promise<AppPage> {
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return { page, errors };
}

export async function newAppContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 900 } });
}

/** axe-core on the page as it is: no serious or critical violation. Injected by CDP evaluate (the CSP forbids inline scripts). */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] = await page.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n: any) => ({ target: n.target })) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual([]);
}

/**
 * For each theme: axe-core, then screenshots at 1280 and 390 px (full page) named `<name>-<width>-<theme>.png`.
 * `ready` waits for the page to settle after a resize or theme switch.
 */
export async function auditPage(page: Page, name: string, ready: () => Promise<unknown> = async () => {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await ready();
    await expectAccessible(page, `${name} (${theme})`);
    await toTop(page);
    await page.screenshot({ path: join(SHOTS, `${name}-1280-${theme}.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(150);
    await ready();
    await expectAccessible(page, `${name} at 390 px (${theme})`);
    await toTop(page);
    await page.screenshot({ path: join(SHOTS, `${name}-390-${theme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Scrolls to the top before a full-page screenshot: Chromium keeps the scroll offset while it captures the whole
 * page, so sticky elements would be drawn wherever the last scrollIntoView left them.
 */
async function toTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => window.scrollY === 0);
}
