// `bun src/web/build.ts [--out DIR]`: bundles the dashboard and prints its initial and total gzipped sizes.
// Exits 1 when either is over its budget, so CI catches growth.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleDashboard, INITIAL_BUDGET, TOTAL_BUDGET } from './bundle.ts';

const outIndex = process.argv.indexOf('--out');
const keep = outIndex > 0 && process.argv[outIndex + 1];
const dir = keep || join(mkdtempSync(join(tmpdir(), 'tern-web-')), 'out');
const b = await bundleDashboard(dir);
if (!keep) rmSync(join(dir, '..'), { recursive: true, force: true });
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`dashboard initial (JS + CSS of the first load): ${kb(b.initialGzipBytes)} gzipped (budget ${kb(INITIAL_BUDGET)})`);
console.log(`dashboard total (every chunk, lazy ones included): ${kb(b.totalGzipBytes)} gzipped (budget ${kb(TOTAL_BUDGET)})`);
for (const a of [...b.assets.values()].sort((x, y) => y.gzip.byteLength - x.gzip.byteLength)) {
  console.log(`  ${a.name.padEnd(40)} ${kb(a.body.byteLength).padStart(9)} ${kb(a.gzip.byteLength).padStart(9)} gz`);
}
if (b.initialGzipBytes > INITIAL_BUDGET || b.totalGzipBytes > TOTAL_BUDGET) process.exit(1);
