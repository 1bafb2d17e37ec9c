// /docs: the API reference page and its script come from this server (no CDN), under the pages' security headers.
import { afterAll, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { withServer } from '../helpers/fixture.ts';
import { launchBrowser } from '../tracker/browser.ts';

const fx = withServer({ timeout: 60_000 });
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
}, 60_000);

const root = join(import.meta.dir, '..', '..');
const standalone = join(root, 'node_modules/@scalar/api-reference/dist/browser/standalone.js');

test('the page names no external URL, only its own scripts, and carries the security headers', async () => {
  const r = await fetch(`${fx.srv.url}/docs`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toStartWith('text/html');
  const html = await r.text();
  expect(html).not.toMatch(/https?:\/\//);
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
  const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);
  expect(scripts.map((s) => s.replace(/\?.*/, ''))).toEqual(['/docs/scalar.js', '/docs/init.js']);
  const csp = r.headers.get('content-security-policy')!;
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self';");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(r.headers.get('x-frame-options')).toBe('DENY');
  expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  expect(r.headers.get('referrer-policy')).toBe('same-origin');
});

test('Scalar\'s standalone build is served from node_modules, cacheable by version, gzipped when asked', async () => {
  const html = await (await fetch(`${fx.srv.url}/docs`)).text();
  const src = html.match(/src="(\/docs\/scalar\.js\?v=[^"]+)"/)![1];
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/@scalar/api-reference/package.json'), 'utf8'));
  expect(src).toBe(`/docs/scalar.js?v=${version}`);
  const plain = await fetch(fx.srv.url + src, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('content-type')).toStartWith('text/javascript');
  expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
  const body = new Uint8Array(await plain.arrayBuffer());
  expect(body.length).toBe(statSync(standalone).size);
  // Bun's fetch would inflate a gzipped body by itself: ask for the bytes over a raw request instead.
  const gz = await fetch(fx.srv.url + src, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  const packed = new Uint8Array(await gz.arrayBuffer());
  expect(packed.length).toBeLessThan(body.length / 2);
  expect(gunzipSync(packed).equals(Buffer.from(body))).toBe(true);
  const init = await (await fetch(`${fx.srv.url}/docs/init.js`)).text();
  expect(init).toContain('"url":"/api/v1/openapi.json"');
});

test('no CDN is named anywhere in src/', () => {
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  for (const f of files(join(root, 'src'))) {
    expect({ f, cdn: /jsdelivr|unpkg\.com|cdnjs|esm\.sh|skypack/.test(readFileSync(f, 'utf8')) }).toEqual({ f, cdn: false });
  }
});

test('in a browser the reference renders from this server alone, with no CSP violation', async () => {
  browser = await launchBrowser();
  const page = await browser.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error' && !/favicon/.test(m.location().url)) problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${fx.srv.url}/docs`);
  await page.getByText('Shared links', { exact: true }).first().waitFor({ timeout: 30_000 });
  expect(await page.title()).toContain('Tern API');
  expect(requests.filter((u) => !u.startsWith(fx.srv.url) && !u.startsWith('data:'))).toEqual([]);
  expect(requests).toContain(`${fx.srv.url}/api/v1/openapi.json`);
  expect(problems).toEqual([]);
}, 60_000);
