// Headless Chromium (Debian's package, never a download) for the tracker tests, and a recorder of what the script sends.
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** `backForwardCache`: keep Chromium's bfcache, which Playwright turns off by default. */
export function launchBrowser(opts: { backForwardCache?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    // TERN_CHROMIUM: the same variable scripts/test-prerequisites.ts checks before the tests run.
    executablePath: process.env.TERN_CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: opts.backForwardCache ? ['--disable-back-forward-cache'] : undefined,
  });
}

/**
 * A context whose user agent reads like a desktop Chrome: ingestion drops "HeadlessChrome" as a bot (contract §6), and
 * navigator.webdriver stays true, so pages still need data-allow-automation.
 */
export async function newVisitorContext(browser: Browser): Promise<BrowserContext> {
  const probe = await browser.newPage();
  const ua = (await probe.evaluate(() => navigator.userAgent)).replace('HeadlessChrome', 'Chrome');
  await probe.close();
  return browser.newContext({ userAgent: ua });
}

export type Beacon = { endpoint: 'event' | 'identify'; contentType: string; body: any };

/** Every request the page makes to Tern's ingestion endpoints, parsed, in the order the browser sent them. */
export function recordBeacons(context: BrowserContext, ternUrl: string): Beacon[] {
  const beacons: Beacon[] = [];
  context.on('request', (r) => {
    const m = r.url().match(/\/api\/v1\/(event|identify)$/);
    if (!r.url().startsWith(ternUrl) || !m || r.method() !== 'POST') return;
    beacons.push({ endpoint: m[1] as Beacon['endpoint'], contentType: r.headers()['content-type'] ?? '', body: JSON.parse(r.postData() ?? 'null') });
  });
  return beacons;
}

/** Polls until `check` returns a value (not undefined/false) or the deadline passes; then returns the last value. */
export async function eventually<T>(check: () => T | Promise<T>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last = await check();
  while (!last && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = await check();
  }
  return last;
}
