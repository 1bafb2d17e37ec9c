// Builds the dashboard SPA (src/dashboard/) into content-hashed ES modules and CSS, kept in memory, gzipped.
// The build is cached in DATA_DIR/cache/dashboard-<source hash>/ like the tracker's, so restarts (and Deno, which
// spawns the bun CLI) rebuild only when the sources or the lockfile changed; a failed build falls back to the
// newest cached one. A copy also goes to node_modules/.cache/tern/ beside the sources it was built from, so a
// fresh DATA_DIR of the same install (every test server, a second instance) copies it instead of rebuilding.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleBrowserApp } from '../runtime/bundle.ts';
import { sourceHash } from '../runtime/source-hash.ts';
import { indexHtml, type Manifest } from './index-html.ts';

/** The dashboard route's first load (entry JS, its static imports and the CSS), gzipped. */
export const INITIAL_BUDGET = 80 * 1024;
/** Every asset, lazy chunks (charts, map) included, gzipped. */
export const TOTAL_BUDGET = 180 * 1024;

export type WebAsset = { name: string; type: string; body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> };
export type DashboardBuild = {
  assets: Map<string, WebAsset>;
  html: string;
  manifest: Manifest;
  initialGzipBytes: number;
  totalGzipBytes: number;
  /** Where it came from: DATA_DIR's cache, the install's cache, or a build at this start. */
  source: 'data-dir' | 'install' | 'built';
};

const appDir = fileURLToPath(new URL('../dashboard/', import.meta.url));
const lockfile = fileURLToPath(new URL('../../package-lock.json', import.meta.url));
const installCache = fileURLToPath(new URL('../../node_modules/.cache/tern/', import.meta.url));
const PREFIX = 'dashboard-';
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml', json: 'application/json',
};

const typeOf = (name: string) => TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** Chunks an ES module imports statically (`from"./x.js"`, `import"./x.js"`): they load with it, so they are preloaded. */
function staticImports(code: string): string[] {
  return [...code.matchAll(/\b(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)].map((m) => m[1]!);
}

function manifestOf(dir: string): Manifest {
  const files = readdirSync(dir);
  const entry = files.find((f) => f.startsWith('main-') && f.endsWith('.js'));
  if (!entry) throw new Error('dashboard build has no main-*.js');
  const preload = new Set<string>();
  const visit = (f: string) => {
    for (const dep of staticImports(readFileSync(join(dir, f), 'utf8'))) if (!preload.has(dep)) { preload.add(dep); visit(dep); }
  };
  visit(entry);
  const icon = files.find((f) => f.startsWith('favicon-')) ?? '';
  return { entry, css: files.filter((f) => f.endsWith('.css')), preload: [...preload], icon };
}

function load(dir: string, source: DashboardBuild['source']): DashboardBuild {
  const manifest: Manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const assets = new Map<string, WebAsset>();
  for (const name of readdirSync(dir)) {
    if (name === 'manifest.json') continue;
    const body = new Uint8Array(readFileSync(join(dir, name)));
    assets.set(name, { name, type: typeOf(name), body, gzip: new Uint8Array(gzipSync(body, { level: 9 })) });
  }
  const gz = (n: string) => assets.get(n)?.gzip.byteLength ?? 0;
  const initialGzipBytes = [manifest.entry, ...manifest.preload, ...manifest.css].reduce((s, n) => s + gz(n), 0);
  const totalGzipBytes = [...assets.values()].filter((a) => /\.(js|css)$/.test(a.name)).reduce((s, a) => s + a.gzip.byteLength, 0);
  return { assets, html: indexHtml(manifest), manifest, initialGzipBytes, totalGzipBytes, source };
}

/** Builds into `dir` (which must not exist yet): the bundle, the hashed favicon and manifest.json last. */
async function buildInto(dir: string): Promise<void> {
  await bundleBrowserApp(join(appDir, 'main.tsx'), dir);
  const icon = readFileSync(join(appDir, 'favicon.svg'));
  const iconHash = sourceHash([], [], [join(appDir, 'favicon.svg')]).slice(0, 8);
  writeFileSync(join(dir, `favicon-${iconHash}.svg`), icon);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifestOf(dir)));
}

/** Bundles into a fresh temporary directory without touching any cache (the build command uses this). */
export async function bundleDashboard(outDir: string): Promise<DashboardBuild> {
  rmSync(outDir, { recursive: true, force: true });
  await buildInto(outDir);
  return load(outDir, 'built');
}

function newestCached(cacheDir: string): string | undefined {
  try {
    const dirs = readdirSync(cacheDir).filter((f) => f.startsWith(PREFIX) && !f.endsWith('.tmp')).map((f) => join(cacheDir, f));
    dirs.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    return dirs.find((d) => existsSync(join(d, 'manifest.json')));
  } catch {
    return undefined;
  }
}

/** Copies a complete build directory to `to` atomically (a tmp sibling, then a rename); false if it could not. */
function copyBuild(from: string, to: string): boolean {
  const tmp = `${to}.${process.pid}.tmp`;
  try {
    mkdirSync(join(to, '..'), { recursive: true });
    rmSync(tmp, { recursive: true, force: true });
    cpSync(from, tmp, { recursive: true });
    if (existsSync(to)) rmSync(tmp, { recursive: true, force: true });
    else renameSync(tmp, to);
    return true;
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    return false;
  }
}

/** Removes the other builds in a cache directory (older sources). */
function prune(cacheDir: string, keep: string): void {
  try {
    for (const f of readdirSync(cacheDir)) {
      if (f.startsWith(PREFIX) && !f.endsWith('.tmp') && join(cacheDir, f) !== keep) rmSync(join(cacheDir, f), { recursive: true, force: true });
    }
  } catch {
    // Nothing to prune.
  }
}

/** The dashboard for a server on `dataDir`: a cached build if current, else a fresh one (moved in atomically). */
export async function loadDashboard(dataDir: string): Promise<DashboardBuild> {
  const cacheDir = join(dataDir, 'cache');
  const name = `${PREFIX}${sourceHash([appDir], ['.ts', '.tsx', '.css', '.svg'], [lockfile])}`;
  const dir = join(cacheDir, name);
  if (existsSync(join(dir, 'manifest.json'))) return load(dir, 'data-dir');
  const installed = join(installCache, name);
  if (existsSync(join(installed, 'manifest.json')) && copyBuild(installed, dir)) {
    prune(cacheDir, dir);
    return load(dir, 'install');
  }
  const tmp = `${dir}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    rmSync(tmp, { recursive: true, force: true });
    await buildInto(tmp);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const stale = newestCached(cacheDir);
    if (stale === undefined) throw e;
    return load(stale, 'data-dir');
  }
  prune(cacheDir, dir);
  renameSync(tmp, dir);
  // Best effort: a read-only install only costs the next fresh DATA_DIR a build.
  if (copyBuild(dir, installed)) prune(installCache, installed);
  return load(dir, 'built');
}
