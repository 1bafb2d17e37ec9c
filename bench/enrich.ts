// Enrichment cost per event over generated traffic: first pass (cold UA/geo caches) and a second
// pass over the same events (warm), plus the raw parser costs the caches avoid.
// Run: bun bench/enrich.ts [--events 200000]
import { parseArgs } from 'node:util';
import { UAParser } from 'ua-parser-js';
import { generateEvents } from './generate.ts';
import { enrich } from '../src/ingest/enrich/index.ts';

const { values } = parseArgs({ options: { events: { type: 'string', default: '200000' } } });
const events = [...generateEvents({ events: Number(values.events), seed: 3 })];
const inputs = events.map((e) => ({
  url: e.url, referrer: e.referrer, userAgent: e.user_agent, ip: e.ip, screenWidth: e.screen_w, siteDomain: 'example.com',
}));

function time(label: string, n: number, fn: () => void) {
  const t0 = performance.now();
  fn();
  const us = ((performance.now() - t0) * 1000) / n;
  console.log(`${label.padEnd(34)} ${us.toFixed(2).padStart(7)} µs/event  ${Math.round(1e6 / us).toLocaleString('en').padStart(10)} events/s`);
}

console.log(`${inputs.length.toLocaleString('en')} generated events, ${new Set(inputs.map((i) => i.ip)).size.toLocaleString('en')} distinct IPs`);
time('enrich, first pass (cold caches)', inputs.length, () => { for (const i of inputs) enrich(i); });
time('enrich, second pass (warm caches)', inputs.length, () => { for (const i of inputs) enrich(i); });
const uas = inputs.slice(0, 20_000).map((i, k) => `${i.userAgent} ${k}`);
time('ua-parser-js uncached (reference)', uas.length, () => { for (const ua of uas) new UAParser(ua).getResult(); });
