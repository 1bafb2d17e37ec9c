// Builds the tracking script from src/tracker/client/ and keeps it in memory, gzipped, with an ETag.
// The build is cached in DATA_DIR/cache/ keyed by a hash of the client sources, so restarts (and Deno, which has to
// spawn the bun CLI) rebuild only when the sources changed; a failed build falls back to the newest cached one.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleBrowserScript } from '../runtime/bundle.ts';
import { sourceHash } from '../runtime/source-hash.ts';

/** Spec budget: the tracker must stay under 3 KB minified and gzipped. */
export const GZIP_BUDGET = 3 * 1024;

export type TrackerAsset = { js: string; gzip: Uint8Array<ArrayBuffer>; etag: string; bytes: number; gzipBytes: number; cached: boolean };

const clientDir = fileURLToPath(new URL('./client/', import.meta.url));
const PREFIX = 'tracker-';

const trackerSourceHash = () => sourceHash([clientDir], ['.ts']);

function asset(js: string, cached: boolean): TrackerAsset {
  const gzip = new Uint8Array(gzipSync(js, { level: 9 }));
  const etag = `"${createHash('sha256').update(js).digest('hex').slice(0, 16)}"`;
  return { js, gzip, etag, bytes: Buffer.byteLength(js), gzipBytes: gzip.byteLength, cached };
}

function readCached(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function newestCached(cacheDir: string): string | undefined {
  try {
    const files = readdirSync(cacheDir).filter((f) => f.startsWith(PREFIX) && f.endsWith('.js')).map((f) => join(cacheDir, f));
    files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    return files[0] && readCached(files[0]);
  } catch {
    return undefined;
  }
}

/** Bundles the client without touching any cache (the build command and tests use this). */
export async function bundleTracker(): Promise<TrackerAsset> {
  return asset(await bundleBrowserScript(join(clientDir, 'index.ts')), false);
}

/** The tracker for a server on `dataDir`: cached build if current, else a fresh one (written atomically). */
export async function loadTracker(dataDir: string): Promise<TrackerAsset> {
  const cacheDir = join(dataDir, 'cache');
  const file = join(cacheDir, `${PREFIX}${trackerSourceHash()}.js`);
  const hit = readCached(file);
  if (hit !== undefined) return asset(hit, true);
  let built: TrackerAsset;
  try {
    built = await bundleTracker();
  } catch (e) {
    const stale = newestCached(cacheDir);
    if (stale === undefined) throw e;
    return asset(stale, true);
  }
  try {
    mkdirSync(cacheDir, { recursive: true });
    for (const f of readdirSync(cacheDir)) if (f.startsWith(PREFIX)) rmSync(join(cacheDir, f), { force: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, built.js);
    renameSync(tmp, file);
  } catch {
    // A read-only DATA_DIR only costs a rebuild at the next start.
  }
  return built;
}
