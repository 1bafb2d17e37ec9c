// `npm run bench`: how far one box goes. For each store size (1M and 10M events; 100M with --100m) on a copy of
// the query benches' store: bytes per stored event at rest, every analytics endpoint's p50/p99 per range, a small
// site's reports in that store against the same site alone, the import rate into it, ingestion over HTTP (wrk)
// into it, and the server's peak RSS. Each size's figures go to bench/out/one-box/<events>.json; the Markdown
// table of every size measured so far goes to bench/out/one-box/report.md (git-ignored).
// 100M: ten copies of the 10M store under their own visitor IDs (bench/multiply-store.ts), not imported.
// Usage: npm run bench -- [--sizes 1m,10m] [--100m] [--store <dir>]… [--runs 20] [--small-events 100000]
//          [--ingest-seconds 15] [--memory 2GB] [--no-ingest] [--no-small]
// --store names an existing store (a dir with bench.json, e.g. /work/main/bench/out/query-data): it is copied,
// never written; a size without one is built (or reused) in bench/out/ by bench/query-store.ts.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer, type TestServer } from '../test/helpers/server.ts';
import { timeAlternating, timeGet, type Timing } from './http-timing.ts';
import { compareSmallSite, type SmallSiteResult } from './small-site.ts';
import { ENDPOINTS, endpointUrl, scenarios } from './query-scenarios.ts';
import { compactStore, prepareStore, readStoreMeta, storeDir, STORE_TZ, type StoreMeta } from './query-store.ts';
import { rssPeak } from './proc-stats.ts';
import { reclaimFreeBlocks } from '../src/storage/reclaim-free-blocks.ts';
import { storeSize, type StoreSize } from './store-size.ts';
import { multiplyStore } from './multiply-store.ts';
import { hasWrk, wrk, writeWrkEvents, type WrkResult } from './wrk.ts';
import { renderReport, type SizeResult } from './one-box-report.ts';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1m,10m' }, '100m': { type: 'boolean', default: false },
    store: { type: 'string', multiple: true, default: [] }, runs: { type: 'string', default: '20' },
    'small-events': { type: 'string', default: '100000' }, 'ingest-seconds': { type: 'string', default: '15' },
    memory: { type: 'string', default: '2GB' }, 'no-ingest': { type: 'boolean', default: false }, 'no-small': { type: 'boolean', default: false },
  },
});
const parseSize = (s: string) => Math.round(Number(s.replace(/m$/i, '')) * (/m$/i.test(s) ? 1e6 : 1));
const sizes = [...args.sizes!.split(',').map(parseSize), ...(args['100m'] ? [100_000_000] : [])];
const RUNS = Number(args.runs);
const OUT = join(import.meta.dir, 'out', 'one-box');
mkdirSync(OUT, { recursive: true });
const given = new Map(args.store!.map((d) => [readStoreMeta(d)?.events ?? NaN, d] as const));
const env = { DUCKDB_MEMORY_LIMIT: args.memory!, INGEST_LOAD_INTERVAL_MS: '', TRUST_PROXY: 'true' };
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

/** The store of `events` events: the one --store named, else bench/out's (built when missing). */
async function source(events: number): Promise<{ dir: string; meta: StoreMeta }> {
  const dir = given.get(events);
  if (dir) return { dir, meta: readStoreMeta(dir)! };
  // 100M through the import path takes hours here: ten copies of the 10M store under their own visitor IDs.
  if (events === 100_000_000 && readStoreMeta(storeDir(events))?.events !== events) {
    const ten = await source(10_000_000);
    log(`building the 100M store from ten copies of ${ten.dir} (bench/multiply-store.ts)`);
    return { dir: storeDir(events), meta: await multiplyStore(ten.dir, 10, storeDir(events), args.memory) };
  }
  const meta = await prepareStore(events);
  return { dir: storeDir(events), meta };
}

async function queries(srv: TestServer, meta: StoreMeta) {
  const rows: { endpoint: string; scenario: string; t: Timing }[] = [];
  for (const s of scenarios(STORE_TZ)) {
    for (const e of ENDPOINTS) {
      const { t } = await timeAlternating(RUNS, { t: () => timeGet(endpointUrl(srv.url, meta.orgId, meta.siteId, e, s), meta.token) });
      rows.push({ endpoint: e, scenario: s.name, t: t! });
      log(`  ${e} ${s.name}: p50 ${t!.p50.toFixed(0)} ms, p99 ${t!.p99.toFixed(0)} ms`);
    }
  }
  return rows;
}

async function ingest(srv: TestServer, meta: StoreMeta): Promise<WrkResult | null> {
  if (args['no-ingest'] || !hasWrk()) { if (!args['no-ingest']) log('no wrk (apt-get install -y wrk): ingestion skipped'); return null; }
  const site = await (await fetch(`${srv.url}/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}`, { headers: { authorization: `Bearer ${meta.token}` } })).json() as any;
  const eventsFile = join(OUT, 'wrk-events.tsv');
  writeWrkEvents(eventsFile, site.data.public_id);
  const o = { eventsFile, connections: 64, threads: 1 };
  await wrk(srv.url, 3, srv.proc.pid, o); // warm-up
  const r = await wrk(srv.url, Number(args['ingest-seconds']), srv.proc.pid, o);
  rmSync(eventsFile, { force: true });
  return r;
}

async function measure(events: number): Promise<SizeResult> {
  const src = await source(events);
  const dir = join(import.meta.dir, 'out', `one-box-store-${events}`);
  log(`${events.toLocaleString('en')} events: copying ${src.dir}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(src.dir, dir, { recursive: true });
  try {
    await compactStore(events, dir);
    // As every server start does: the database file's free blocks go back to the disk before it is measured.
    await reclaimFreeBlocks(dir, args.memory!);
    const size: StoreSize = await storeSize(dir, events);
    log(`  at rest: ${size.perEvent.toFixed(1)} bytes/event`);
    const load0 = loadavg()[0]!;
    const srv = await startServer({ dataDir: dir, env });
    const rss = rssPeak(srv.proc.pid);
    try {
      const q = await queries(srv, src.meta);
      const rssQueries = rss.peek();
      let small: SmallSiteResult | null = null;
      if (!args['no-small']) {
        log(`  small site (${args['small-events']} events) in this store vs alone`);
        small = await compareSmallSite(srv, env, Number(args['small-events']), RUNS);
        log(`  import ${small.importShared.rate.toFixed(0)} events/s into this store, ${small.importAlone.rate.toFixed(0)} into an empty one`);
      }
      const ing = await ingest(srv, src.meta);
      if (ing) log(`  ingest ${ing.rps.toFixed(0)} events/s, p99 ${ing.p99} ms`);
      return {
        events, measuredAt: new Date().toISOString(), runs: RUNS, memory: args.memory!, load: [load0, loadavg()[0]!],
        size, queries: q, small, ingest: ing, rssQueriesMb: rssQueries, rssPeakMb: rss.stop(),
      };
    } finally {
      rss.stop();
      await srv.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM`;
for (const events of sizes) {
  const r = await measure(events);
  writeFileSync(join(OUT, `${events}.json`), JSON.stringify({ ...r, machine }, null, 2));
}
const report = renderReport(OUT, `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim());
writeFileSync(join(OUT, 'report.md'), report);
console.log(`\n${report}\nwritten to ${join(OUT, 'report.md')}`);
