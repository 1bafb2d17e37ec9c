// Bundles a browser entry point into one minified IIFE: Bun.build in-process on Bun; on Deno, which has no
// bundler API, the `bun` CLI that npm installs as a dependency (node_modules/.bin/bun), else a `bun` on PATH.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runtimeName } from './index.ts';

declare const Bun: any;

const localBun = fileURLToPath(new URL('../../node_modules/.bin/bun', import.meta.url));

export async function bundleBrowserScript(entry: string): Promise<string> {
  if (runtimeName === 'bun') {
    const out = await Bun.build({ entrypoints: [entry], target: 'browser', format: 'iife', minify: true });
    if (!out.success) throw new Error(`bundling ${entry} failed: ${out.logs.map(String).join('\n')}`);
    return await out.outputs[0].text();
  }
  const bun = existsSync(localBun) ? localBun : 'bun';
  return await new Promise<string>((resolve, reject) =>
    execFile(bun, ['build', entry, '--target=browser', '--format=iife', '--minify'], { maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`bundling ${entry} with ${bun} failed: ${stderr || err.message}`)) : resolve(stdout)),
  );
}

const NAMING = '[name]-[hash].[ext]';

/**
 * Bundles a browser app into `outdir` as minified ES modules with code splitting (dynamic imports become lazy
 * chunks) and content-hashed file names; CSS imported by the code comes out as .css files beside the chunks.
 */
export async function bundleBrowserApp(entry: string, outdir: string): Promise<void> {
  if (runtimeName === 'bun') {
    const out = await Bun.build({
      entrypoints: [entry], outdir, target: 'browser', format: 'esm', splitting: true, minify: true,
      naming: { entry: NAMING, chunk: NAMING, asset: NAMING },
    });
    if (!out.success) throw new Error(`bundling ${entry} failed: ${out.logs.map(String).join('\n')}`);
    return;
  }
  const bun = existsSync(localBun) ? localBun : 'bun';
  const args = ['build', entry, `--outdir=${outdir}`, '--target=browser', '--format=esm', '--splitting', '--minify',
    `--entry-naming=${NAMING}`, `--chunk-naming=${NAMING}`, `--asset-naming=${NAMING}`];
  await new Promise<void>((resolve, reject) =>
    execFile(bun, args, { maxBuffer: 16 << 20 }, (err, _stdout, stderr) =>
      err ? reject(new Error(`bundling ${entry} with ${bun} failed: ${stderr || err.message}`)) : resolve()),
  );
}
