// `bun src/tracker/build.ts [--out FILE]`: bundles the tracking script and prints its minified and gzipped size.
// Exits 1 when the gzipped size is over the 3 KB budget, so CI catches growth.
import { writeFileSync } from 'node:fs';
import { bundleTracker, GZIP_BUDGET } from './bundle.ts';

const asset = await bundleTracker();
const outIndex = process.argv.indexOf('--out');
if (outIndex > 0 && process.argv[outIndex + 1]) writeFileSync(process.argv[outIndex + 1], asset.js);
console.log(`tracker.js: ${asset.bytes} bytes minified, ${asset.gzipBytes} bytes gzipped (budget ${GZIP_BUDGET})`);
if (asset.gzipBytes > GZIP_BUDGET) process.exit(1);
