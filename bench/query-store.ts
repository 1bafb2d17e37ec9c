// The query benches' data set: N generated events for one site over 12 months, loaded through the import
// code and compacted by the server's own Compactor, in bench/out/ (kept and reused across runs).
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
import { migrate } from '../src/storage/migrate.ts';

export type StoreMeta = { orgId: string; siteId: string; token: string; events: number };

export const STORE_TZ = 'Europe/Berlin';
const CHUNK = 1_000_000;

/** Other benches read the 10M-event directory; other sizes get their own so it is never rebuilt by accident. */
export const storeDir = (events: number) => join(import.meta.dir, 'out', events === 10_000_000 ? 'query-data' : `query-data-${events}`);

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

/** The account of a store built by prepareStore, or null when `dir` holds no finished store. */
export function readStoreMeta(dir: string): StoreMeta | null {
  const metaFile = join(dir, 'bench.json');
  return existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, 'utf8')) as StoreMeta) : null;
}

/** The store of `events` events in `dir` (built unless already there, or `fresh`) and its account. */
export async function prepareStore(events: number, fresh = false, dir = storeDir(events)): Promise<StoreMeta> {
  const metaFile = join(dir, 'bench.json');
  const found = fresh ? null : readStoreMeta(dir);
  if (found?.events === events) return found;
  rmSync(dir, { recursive: true, force: true });
  const srv = await startServer({ dataDir: dir });
  const acc = await setupAccount(srv.url, { timezone: STORE_TZ });
  await srv.stop();

  // Straight into storage through the import code path (validation, enrichment, sessionizing, loader).
  // Loading 10M rows in 1M-row transactions needs more than the server's default DuckDB budget.
  const db = await Database.open(dir, 4, '4GB');
  const site = (await SiteCache.load(db)).inOrg(acc.orgId, acc.site.id)!;
  const serial = new Serial();
  const manifest = new ParquetManifest(dir);
  await manifest.load(db);
  const gen = generateEvents({ events, site: site.public_id, seed: 7 });
  const t0 = performance.now();
  for (let done = 0; done < events; done += CHUNK) {
    const r = await importEvents(db, serial, manifest, site, chunkStream(gen, Math.min(CHUNK, events - done)));
    console.log(`imported ${done + r.imported} (rejected ${r.rejected}) in ${secs(t0)}`);
  }
  await db.close();
  const meta = { orgId: acc.orgId, siteId: acc.site.id, token: acc.token, events };
  writeFileSync(metaFile, JSON.stringify(meta));
  return meta;
}

/** The production layout: every closed visit compacted into time-sorted Parquet by the server's own Compactor. */
export async function compactStore(events: number, dir = storeDir(events)) {
  const db = await Database.open(dir, 4, '4GB');
  // A store built by an older Tern gets the schema the Compactor expects (the server would migrate it at start).
  await migrate(db);
  const manifest = new ParquetManifest(dir);
  await manifest.load(db);
  const t0 = performance.now();
  const r = await new Compactor(db, manifest, new Serial()).run();
  if (r.files || r.merged) console.log(`compacted ${r.visits} visits into ${r.files} files (merged ${r.merged}) in ${secs(t0)}`);
  await db.exec('CHECKPOINT');
  await db.close();
}
