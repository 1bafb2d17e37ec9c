// GET /tracker.js: headers, caching, gzip, the 3 KB budget, the build command, the build cache, and Deno.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { join } from 'node:path';

const root = join(import.meta.dir, '..', '..');
const BUDGET = 3 * 1024;

/** The script as the Bun server built it, to compare the Deno build with. */
let bunScript = '';
const fx = withServer();
beforeAll(async () => {
  bunScript = await (await fetch(`${fx.srv.url}/tracker.js`)).text();
});

test('served as JavaScript, cacheable, CORS-open, revalidated by ETag', async () => {
  const r = await fetch(`${fx.srv.url}/tracker.js`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
  expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
  const etag = r.headers.get('etag')!;
  expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
  const js = await r.text();
  expect(js.startsWith('(()=>{')).toBe(true); // one self-contained IIFE: no imports, no globals but `tern`
  expect(js).not.toContain('document.cookie');
  expect(js).not.toMatch(/\bimport\b|\brequire\(/);
  const again = await fetch(`${fx.srv.url}/tracker.js`, { headers: { 'if-none-match': `W/${etag}` } });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe('');
});

test('gzipped on the wire and under 3 KB', async () => {
  const r = await fetch(`${fx.srv.url}/tracker.js`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
  expect(r.headers.get('content-encoding')).toBe('gzip');
  const gz = new Uint8Array(await r.arrayBuffer());
  const js = new TextDecoder().decode(Bun.gunzipSync(gz));
  expect(js).toBe(await (await fetch(`${fx.srv.url}/tracker.js`)).text());
  console.log(`tracker.js: ${js.length} bytes minified, ${gz.length} bytes gzipped`);
  expect(gz.length).toBeLessThan(BUDGET);
});

test('the build command prints the sizes and enforces the budget', async () => {
  const proc = Bun.spawn([process.execPath, 'src/tracker/build.ts'], { cwd: root, stdout: 'pipe', stderr: 'pipe' });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  const m = out.match(/tracker\.js: (\d+) bytes minified, (\d+) bytes gzipped \(budget 3072\)/);
  expect(m).not.toBeNull();
  expect(Number(m![2])).toBeLessThan(BUDGET);
});

test('a restart on the same DATA_DIR serves the cached build', async () => {
  expect(fx.srv.logs()).toMatch(/"msg":"tracker.js ready".*"cached":false/);
  const before = await (await fetch(`${fx.srv.url}/tracker.js`)).text();
  await fx.srv.stop();
  const again = await startServer({ dataDir: fx.srv.dataDir });
  try {
    expect(again.logs()).toMatch(/"msg":"tracker.js ready".*"cached":true/);
    expect(await (await fetch(`${again.url}/tracker.js`)).text()).toBe(before);
  } finally {
    await again.stop();
  }
});

test('under Deno the script is built with the bun CLI and is the same file', async () => {
  const deno = await startServer({ runtime: 'deno' });
  try {
    const r = await fetch(`${deno.url}/tracker.js`);
    expect(r.status).toBe(200);
    expect(deno.logs()).toMatch(/"msg":"tracker.js ready".*"cached":false/);
    expect(await r.text()).toBe(bunScript);
  } finally {
    await deno.cleanup();
  }
}, 120_000);
