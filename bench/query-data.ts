// The query benchmarks' data: N generated events for one site over 12 months, loaded through the import code
// into bench/out/query-data (10M) or bench/out/query-data-<N>, kept and reused; compacted as the server would.
// Used by bench/query.ts, bench/export.ts and bench/erase.ts.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEvents } from './generate.ts';
import { startServer } from '../test/helpers/server.ts';
import { setupAccount } from '../test/helpers/api.ts';
import { Database } from '../src/storage/database.ts';
import { SiteCache } from '../src/sites/site-cache.ts';
import { Serial } from '../src/storage/serial.ts';
import { importEvents } from '../src/ingest/import.ts';
import { Compactor } from '../src/storage/compaction.ts';
import { ParquetManifest } from '../src/storage/parquet-layout.ts';

/** Other benches read the 10M-event directory; other sizes get their own so it is never rebuilt by accident. */
export const queryDataDir = (events: number) => join(import.meta.dir, 'out', events === 10_000_000 ? 'query-data' : `query-data-${events}`);

export const QUERY_DATA_TZ = 'Europe/Berlin';
const TZ = QUERY_DATA_TZ;
const CHUNK = 1_000_000;

export type Meta = { orgId: string; siteId: string; token: string; events: number };

const secs = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1) + ' s';

/** NDJSON lines [from, from + n) of the deterministic generator, as a byte stream for importEvents. */
function chunkStream(gen: Generator<any>, n: number): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let left = n;
  return new ReadableStream({
    pull(ctrl) {
      const lines: string[] = [];
      while (left > 0 && lines.length < 20_000) {
        const r = gen.next();
        if (r.done) { left = 0; break; }
        lines.push(JSON.stringify(r.value));
        left--;
      }
      if (lines.length) ctrl.enqueue(enc.encode(lines.join('\n') + '\n'));
      if (left <= 0) ctrl.close();
    },
  });
}

export async function prepareQueryData(EVENTS: number, fresh = false): Promise<Meta> {
  const DATA_DIR = queryDataDir(EVENTS);
  const META = join(DATA_DIR, 'bench.json');
  if (!fresh && existsSync(META)) {
    const meta = JSON.parse(readFileSync(META, 'utf8')) as Meta;
    if (meta.events === EVENTS) return meta;
  }
  rmSync(DATA_DIR, { recursive: true, force: true });
  const srv = await startServer({ dataDir: DATA_DIR });
  const acc = await setupAccount(srv.url, { timezone: TZ });
  await srv.stop();

  // Straight into storage through the import code path (validation, enrichment, sessionizing, loader).
  // Loading 10M rows in 1M-row transactions needs more than the server's default DuckDB budget.
  const db = await Database.open(DATA_DIR, 4, '4GB');
  const site = (await SiteCache.load(db)).inOrg(acc.orgId, acc.site.id)!;
  const serial = new Serial();
  const manifest = new ParquetManifest(DATA_DIR);
  await manifest.load(db);
  const gen = generateEvents({ events: EVENTS, site: site.public_id, seed: 7 });
  const t0 = performance.now();
  for (let done = 0; done < EVENTS; done += CHUNK) {
    const r = await importEvents(db, serial, manifest, site, chunkStream(gen, Math.min(CHUNK, EVENTS - done)));
    console.log(`imported ${done + r.imported} (rejected ${r.rejected}) in ${secs(t0)}`);
  }
  await db.close();
  const meta = { orgId: acc.orgId, siteId: acc.site.id, token: acc.token, events: EVENTS };
  writeFileSync(META, JSON.stringify(meta));
  return meta;
}

/** Opens the data dir the way the server does: database plus the Parquet manifest tableSource() reads. */
async function openStorage(DATA_DIR: string) {
  const db = await Database.open(DATA_DIR, 4, '4GB');
  const manifest = new ParquetManifest(DATA_DIR);
  await manifest.load(db);
  return { db, manifest };
}

/** The production layout: every closed visit compacted into time-sorted Parquet by the server's own Compactor. */
export async function compactQueryData(DATA_DIR: string) {
  const { db, manifest } = await openStorage(DATA_DIR);
  const t0 = performance.now();
  const r = await new Compactor(db, manifest, new Serial()).run();
  if (r.files || r.merged) console.log(`compacted ${r.visits} visits into ${r.files} files (merged ${r.merged}) in ${secs(t0)}`);
  await db.exec('CHECKPOINT');
  await db.close();
}

