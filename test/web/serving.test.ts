// The dashboard's serving: index.html at every app URL with page headers, hashed immutable assets, the build cache
// in DATA_DIR/cache, and the size budgets the build prints.
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';

const fx = withServer();

const assetsOf = (html: string) => [...html.matchAll(/\/assets\/([\w.-]+)/g)].map((m) => m[1]);

describe('dashboard serving', () => {
  test('every app URL answers the SPA with security headers; API 404s stay JSON', async () => {
    for (const path of ['/', '/login', '/register', '/sites/new', '/sites/abc/visitors/v1', '/settings/api-keys', '/share/shl_x']) {
      const r = await fetch(fx.srv.url + path);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await r.text();
      expect(html).toContain('<div id="app">');
      expect(assetsOf(html).some((a) => /^main-\w+\.js$/.test(a))).toBe(true);
    }
    const embed = await fetch(`${fx.srv.url}/share/shl_x?embed=true`);
    expect(embed.headers.get('content-security-policy')).not.toContain("frame-ancestors 'none'");
    const api = await fetch(`${fx.srv.url}/api/v1/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'Not found' });
  });

  test('assets are content-hashed, immutable, gzipped when accepted', async () => {
    const html = await (await fetch(fx.srv.url + '/')).text();
    const names = assetsOf(html);
    expect(names.some((n) => n.endsWith('.css'))).toBe(true);
    for (const name of names) {
      expect(name).toMatch(/^[\w.]+-[\w]{8,}\.(js|css|svg)$/);
      const r = await fetch(`${fx.srv.url}/assets/${name}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(r.headers.get('content-encoding')).toBe('gzip');
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const plain = await fetch(`${fx.srv.url}/assets/${names.find((n) => n.endsWith('.js'))}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${fx.srv.url}/assets/main-nothere.js`)).status).toBe(404);
  });

  test('the build is cached in DATA_DIR/cache and reused on restart; a fresh DATA_DIR copies the install\'s copy', async () => {
    const cache = join(fx.srv.dataDir, 'cache');
    const dirs = readdirSync(cache).filter((d) => d.startsWith('dashboard-'));
    expect(dirs.length).toBe(1);
    expect(existsSync(join(cache, dirs[0], 'manifest.json'))).toBe(true);
    expect(fx.srv.logs()).toMatch(/"msg":"dashboard ready".*"source":"(built|install)"/);
    expect(existsSync(join(import.meta.dir, '../../node_modules/.cache/tern', dirs[0], 'manifest.json'))).toBe(true);
    await fx.srv.stop();
    const again = await startServer({ dataDir: fx.srv.dataDir });
    const fresh = await startServer();
    try {
      expect((await fetch(again.url + '/')).status).toBe(200);
      expect(again.logs()).toMatch(/"msg":"dashboard ready".*"source":"data-dir"/);
      expect((await fetch(fresh.url + '/')).status).toBe(200);
      expect(fresh.logs()).toMatch(/"msg":"dashboard ready".*"source":"install"/);
      expect(readdirSync(join(fresh.dataDir, 'cache')).filter((d) => d.startsWith('dashboard-'))).toEqual(dirs);
    } finally {
      await again.stop();
      await fresh.cleanup();
    }
  }, 60_000);
});

describe('dashboard budgets', () => {
  test('the build prints initial and total gzipped sizes, both within budget', async () => {
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, '../../src/web/build.ts')], { stdout: 'pipe', stderr: 'pipe' });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    const initial = Number(out.match(/initial .*?: ([\d.]+) KB gzipped/)?.[1]);
    const total = Number(out.match(/total .*?: ([\d.]+) KB gzipped/)?.[1]);
    expect(initial).toBeGreaterThan(5);
    expect(initial).toBeLessThanOrEqual(80);
    expect(total).toBeGreaterThanOrEqual(initial);
    expect(total).toBeLessThanOrEqual(180);
  });
});

describe('dashboard under Deno', () => {
  test('the bun CLI bundles it (no Bun.build there) and a Deno server serves it', async () => {
    const root = join(import.meta.dir, '../..');
    const proc = Bun.spawn([join(root, 'node_modules/.bin/deno'), 'run', '-A', '--quiet', join(root, 'src/web/build.ts')], { cwd: root, stdout: 'pipe', stderr: 'pipe' });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(out).toMatch(/initial .*KB gzipped/);
    expect(out).toMatch(/main-\w+\.js/);
    const deno = await startServer({ runtime: 'deno' });
    try {
      const html = await (await fetch(`${deno.url}/sites/new`)).text();
      const js = html.match(/\/assets\/(main-\w+\.js)/)![1];
      const r = await fetch(`${deno.url}/assets/${js}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await r.text()).length).toBeGreaterThan(10_000);
      expect(deno.logs()).toMatch(/"msg":"dashboard ready"/);
    } finally {
      await deno.cleanup();
    }
  }, 120_000);
});
