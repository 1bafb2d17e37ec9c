// Ingestion benchmark (prints figures, asserts nothing): wrk POSTs varied realistic events to a bare
// Bun.serve that only answers 202 and to the real server (durable log), over loopback, in one run;
// then keeps loading the real server up to --rss-events and reports its RSS; then times a bulk import.
//   bun bench/ingest.ts [--duration 15] [--connections 64] [--rss-events 5000000] [--import 1000000]
// The server gets the environment's DUCKDB_MEMORY_LIMIT and INGEST_LOAD_INTERVAL_MS when set (e.g.
// DUCKDB_MEMORY_LIMIT=512MB bun bench/ingest.ts); otherwise the server's defaults (2GB, 5000).
// Needs wrk (apt-get install -y wrk). Data goes to bench/out/ (git-ignored).
import { mkdirSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeNdjson } from './generate.ts';
import { startServer } from '../test/helpers/server.ts';
import { setupAccount } from '../test/helpers/api.ts';
import { rssMb } from './proc-stats.ts';
import { hasWrk, wrk as runWrk, writeWrkEvents, type WrkResult } from './wrk.ts';

const { values: opt } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '64' },
    threads: { type: 'string', default: '1' },
    'rss-events': { type: 'string', default: '5000000' },
    import: { type: 'string', default: '1000000' },
    bare: { type: 'boolean', default: false },
  },
});

/** --bare: the baseline server, doing only what any HTTP server must (read the body, answer 202). */
if (opt.bare) {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', async fetch(req) { await req.arrayBuffer(); return new Response('ok', { status: 202 }); } });
  console.log(`bare listening ${server.port}`);
  await new Promise(() => {});
}

if (!hasWrk()) {
  console.error('bench/ingest.ts needs wrk: apt-get update && apt-get install -y wrk');
  process.exit(1);
}

const out = join(import.meta.dir, 'out');
mkdirSync(out, { recursive: true });
const root = join(import.meta.dir, '..');
const dataDir = join(out, 'ingest-data');
rmSync(dataDir, { recursive: true, force: true });

const dirMb = (dir: string): number => readdirSync(dir, { withFileTypes: true })
  .reduce((s, d) => s + (d.isDirectory() ? dirMb(join(dir, d.name)) : statSync(join(dir, d.name)).size / 1048576), 0);
const fmt = (n: number, d = 0) => n.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });

// 1. The real server and a site to send to.
// An empty value is the server's default (the test helper would otherwise load every segment at once).
const srv = await startServer({ dataDir, env: {
  TRUST_PROXY: 'true', LOG_LEVEL: 'info', DUCKDB_MEMORY_LIMIT: process.env.DUCKDB_MEMORY_LIMIT ?? '', INGEST_LOAD_INTERVAL_MS: process.env.INGEST_LOAD_INTERVAL_MS ?? '',
} });
const acct = await setupAccount(srv.url);

// 2. 50,000 varied events from the realistic generator, as wrk request lines (UA, client IP, /event body).
const eventsFile = join(out, 'ingest-events.tsv');
const lineCount = writeWrkEvents(eventsFile, acct.site.public_id);
const wrk = (url: string, seconds: number, pid: number) => runWrk(url, seconds, pid, { eventsFile, connections: Number(opt.connections), threads: Number(opt.threads) });

// 3. The bare baseline, in its own process like the real one.
const bare = Bun.spawn([process.execPath, join(import.meta.dir, 'ingest.ts'), '--bare'], { stdout: 'pipe', stderr: 'inherit' });
const barePort = await (async () => {
  const dec = new TextDecoder();
  let buf = '';
  for await (const c of bare.stdout as ReadableStream<Uint8Array>) { buf += dec.decode(c); const m = buf.match(/bare listening (\d+)/); if (m) return Number(m[1]); }
  throw new Error('bare server did not start');
})();

const seconds = Number(opt.duration);
console.log(`wrk -t${opt.threads} -c${opt.connections} -d${seconds}s, ${lineCount.toLocaleString('en')} distinct events, loopback, ${navigator.hardwareConcurrency} cores`);
await wrk(`http://127.0.0.1:${barePort}`, 3, bare.pid); // warm-up
const base = await wrk(`http://127.0.0.1:${barePort}`, seconds, bare.pid);
bare.kill();
await wrk(srv.url, 3, srv.proc.pid);
const tern = await wrk(srv.url, seconds, srv.proc.pid);
const row = (name: string, r: WrkResult) => console.log(`${name.padEnd(22)} ${fmt(r.rps).padStart(9)} ev/s   p50 ${fmt(r.p50, 2).padStart(6)} ms   p99 ${fmt(r.p99, 2).padStart(6)} ms   CPU ${fmt(r.cpuUs, 1).padStart(5)} µs/event (main thread ${fmt(r.mainUs, 1)})   non-202 ${r.errors}\n${''.padEnd(22)} main thread on a CPU ${fmt(100 * r.mainOnCpu)}% of the run, waiting for one ${fmt(100 * r.mainWaiting)}%; both cores ${fmt(100 * r.machineBusy)}% busy`);
row('bare Bun.serve (202)', base);
row('tern /api/v1/event', tern);
console.log(`ratio tern / bare: ${(tern.rps / base.rps).toFixed(2)} by throughput, ${(base.cpuUs / tern.cpuUs).toFixed(2)} by CPU per event`);
console.log(`load average during the run: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (other processes compete for the ${navigator.hardwareConcurrency} cores)`);

// 4. Keep going to --rss-events accepted events, then RSS while loaded and after the loader caught up.
const target = Number(opt['rss-events']);
let sent = tern.requests;
// Sampled four times a second, so that the peak includes short spikes (a minute's compaction, a big load).
let peak = rssMb(srv.proc.pid);
const sampler = setInterval(() => { peak = Math.max(peak, rssMb(srv.proc.pid)); }, 250);
while (sent < target) {
  const r = await wrk(srv.url, Math.min(60, Math.max(5, Math.ceil((target - sent) / Math.max(tern.rps, 1000)))), srv.proc.pid);
  sent += r.requests;
  console.log(`  … ${fmt(sent)} events sent (${fmt(r.rps)} ev/s, p99 ${fmt(r.p99, 2)} ms), RSS ${fmt(rssMb(srv.proc.pid))} MB`);
}
await Bun.sleep(3000);
clearInterval(sampler);
console.log(`after ${fmt(sent)} events: RSS ${fmt(rssMb(srv.proc.pid))} MB (peak ${fmt(peak)} MB, sampled every 250 ms while loading)`);

// 5. Bulk import of generated NDJSON (streamed), timed end to end (parse, enrich, sessionize, load, compact).
const importN = Number(opt.import);
if (importN > 0) {
  const file = join(out, 'ingest-import.ndjson');
  writeNdjson({ events: importN, seed: 11, days: 90 }, file);
  const t0 = performance.now();
  const r = await fetch(`${srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import`, {
    method: 'POST', headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/x-ndjson' }, body: Bun.file(file),
  });
  const body = (await r.json()) as any;
  const s = (performance.now() - t0) / 1000;
  if (!body.data) console.log(`import failed: ${JSON.stringify(body)}\n${srv.logs().split('\n').filter((l) => l.includes('"level":"error"')).join('\n')}`);
  console.log(`import: ${fmt(body.data?.imported ?? 0)} events in ${s.toFixed(1)} s = ${fmt((body.data?.imported ?? 0) / s)} events/s (status ${r.status}, rejected ${body.data?.rejected}), RSS ${fmt(rssMb(srv.proc.pid))} MB`);
  rmSync(file, { force: true });
}

const code = await srv.stop();
console.log(`SIGTERM drain exit ${code}; DATA_DIR ${fmt(dirMb(dataDir))} MB`);
