// Merging a month's small files, beside the analytics writers' queue. The parts never change once written, so
// the merged file is written while loads, imports and erasures go on (the long part: 39 s for the 194 files a 10M
// migration leaves, during which live events used to wait in the log), and the queue is taken only to swap it in.
// A writer that replaced one of the parts meanwhile (an erasure, retention, marks recomputed, the site deleted:
// all of them run in the queue) makes the merge drop its file, which would bring back what that writer took out.
import { rmdirSync, rmSync } from 'node:fs';
import { BACKGROUND_THREADS, type Database } from './database.ts';
import type { Serial } from './serial.ts';
import { readOptions, sqlPath, type ParquetFile, type ParquetManifest, type Table } from './parquet-layout.ts';
import { newFilePath, registerFile, unregister, writeFile, writingFiles } from './parquet-writer.ts';
import { frag } from './sql.ts';
import { pausePoint } from './pause-point.ts';
import { log } from '../log.ts';

const MERGE_MIN_FILES = 4;
/** Files at least this large are not merged again (a month's big files stay as they are). */
const SMALL_FILE_ROWS = 500_000;

export type MergeGroup = { tbl: Table; siteId: string; month: string; files: ParquetFile[] };

/**
 * A month's small files of similar size (same number of digits in their row count), once there are
 * MERGE_MIN_FILES of them: files written every second by the loader become one per minute, those one per few
 * minutes, and so on, so each row is rewritten about once per tier rather than per run.
 */
export function mergeGroups(manifest: ParquetManifest): MergeGroup[] {
  const out: MergeGroup[] = [];
  for (const siteId of manifest.sites()) {
    for (const tbl of ['events', 'visits'] as const) {
      for (const month of manifest.months(tbl, siteId)) {
        const tiers = new Map<number, ParquetFile[]>();
        for (const f of manifest.all(tbl, siteId, month)) {
          if (f.rows >= SMALL_FILE_ROWS) continue;
          const tier = String(f.rows).length;
          tiers.set(tier, [...(tiers.get(tier) ?? []), f]);
        }
        for (const files of tiers.values()) if (files.length >= MERGE_MIN_FILES) out.push({ tbl, siteId, month, files });
      }
    }
  }
  return out;
}

/**
 * Writes one file from the group's files, in time order, outside the queue, then swaps it in for them in the
 * queue; returns how many files it merged (0: a part was replaced meanwhile, the file dropped). Files of
 * successive time ranges (the loader writes one after another) are read in that order and streamed, on one
 * DuckDB thread; only overlapping ones (imports of past data) are sorted. Sorting every merge held up to the
 * memory limit: in bench/ingest the minute's merge of ~30 load files (1.5M events) took the RSS from ~450 MB to
 * 2.2 GB for a few seconds every minute. `retire`: takes the parts out of the manifest as the swap publishes.
 */
export async function mergeBeside(db: Database, manifest: ParquetManifest, serial: Serial, group: MergeGroup,
  retire: (files: ParquetFile[]) => void): Promise<number> {
  const { tbl, siteId, month } = group;
  const files = [...group.files].sort((a, b) => (a.min_ts < b.min_ts ? -1 : a.min_ts > b.min_ts ? 1 : 0));
  const presorted = files.every((f, i) => i === 0 || files[i - 1]!.max_ts <= f.min_ts);
  // Timestamps as DuckDB prints them compare as text in time order.
  const stats = {
    rows: files.reduce((n, f) => n + f.rows, 0),
    min_ts: files.map((f) => f.min_ts).reduce((a, b) => (b < a ? b : a)),
    max_ts: files.map((f) => f.max_ts).reduce((a, b) => (b > a ? b : a)),
  };
  // A view keeps the parts on disk while they are read, even if a writer replaces them meanwhile.
  const view = manifest.view();
  const listed = new Set(view.files.all(tbl, siteId, month).map((f) => f.path));
  const dropped = () => log.info('merge dropped: a part was replaced meanwhile', { site: siteId, tbl, month, files: files.length });
  if (!files.every((f) => listed.has(f.path))) {
    view.release();
    dropped();
    return 0;
  }
  const { abs, dir } = newFilePath(manifest, tbl, siteId, month);
  let kept = false;
  try {
    // month and site come from the files' directory names (hive partitioning), not from their columns.
    const read = `read_parquet([${files.map((f) => sqlPath(manifest.abs(f.path))).join(', ')}]${readOptions(tbl)})`;
    await db.withThreads(BACKGROUND_THREADS, () => writeFile((sql, params) => db.exec(sql, params), { abs, dir }, tbl,
      frag(`SELECT * EXCLUDE (month, site) FROM ${read}`), { presorted }));
    await pausePoint('compaction:merge-written');
    kept = await serial.run(async () => {
      const current = new Set(manifest.all(tbl, siteId, month).map((f) => f.path));
      if (!files.every((f) => current.has(f.path))) {
        // A deleted site's directories go with it: not left behind holding nothing.
        rmSync(abs, { force: true });
        if (!manifest.sites().includes(siteId)) for (const d of [dir, `${dir}/..`]) { try { rmdirSync(d); } catch { /* not empty, or gone */ } }
        dropped();
        return false;
      }
      // The parts leave the manifest in the step that publishes the merged file: a query planned in between
      // would read the merged file and its parts, counting their rows twice.
      await writingFiles(db, manifest, async (tx, written) => {
        const f: ParquetFile = { path: manifest.rel(abs), tbl, site_id: siteId, month, ...stats };
        written.push(f);
        await registerFile(tx, f, frag(`SELECT * FROM read_parquet(${sqlPath(abs)})`));
        await unregister(tx, files.map((p) => p.path));
      }, () => retire(files));
      return true;
    });
    return kept ? files.length : 0;
  } finally {
    view.release();
    if (!kept) rmSync(abs, { force: true });
  }
}
