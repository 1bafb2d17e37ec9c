// One stored file written again without one visitor's rows, touching only the row groups that hold them: the
// other row groups are copied byte for byte (parquet-splice.ts), each run of touched ones is COPYed by DuckDB
// without the visitor into a scratch file and spliced in its place, so the rows keep their order. The new file
// is made durable but not registered: the caller's transaction registers it (an unregistered file is an
// orphan, swept at start).
import { mkdirSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from './database.ts';
import { syncDir, syncFile } from './durable-file.ts';
import { ensureDir, partitionDir, sqlPath, type ParquetFile, type ParquetManifest } from './parquet-layout.ts';
import { openSpliceFile, splice, SpliceMismatch, type SpliceFile, type SplicePart } from './parquet-splice.ts';
import { unlimited, type Limit } from './limiter.ts';
import { FULL_ROW_GROUP, parquetOptions } from './parquet-writer.ts';

const WRITE_BUFFER = 1 << 20;

/** Where the scratch files of rewrites go (under DATA_DIR, cleared at start with the other orphans). */
const scratchDir = (dataDir: string) => join(dataDir, 'tmp', 'erase');

/** Removes scratch files a crash left behind. */
export function clearEraseScratch(dataDir: string) {
  rmSync(scratchDir(dataDir), { recursive: true, force: true });
}

/** Runs of consecutive row-group indexes: [3, 4, 7] → [[3, 4], [7]]. */
function runs(groups: number[]): number[][] {
  const out: number[][] = [];
  for (const g of [...groups].sort((a, b) => a - b)) {
    const last = out.at(-1);
    if (last && last.at(-1) === g - 1) last.push(g);
    else out.push([g]);
  }
  return out;
}

/** Writes `chunks` to `path` in large writes, then syncs it. */
async function writeAll(path: string, chunks: AsyncIterable<Uint8Array>) {
  const fd = await open(path, 'w');
  try {
    let buf: Uint8Array[] = [];
    let size = 0;
    const flush = async () => { if (size) await fd.write(Buffer.concat(buf, size)); buf = []; size = 0; };
    for await (const c of chunks) {
      buf.push(c);
      size += c.length;
      if (size >= WRITE_BUFFER) await flush();
    }
    await flush();
    await fd.datasync();
  } finally {
    await fd.close();
  }
}

/**
 * Writes `f` again without the rows of `visitorId` at `rowNumbers` (their row numbers in the file) and returns
 * the new file's registry entry (`stats` from the caller). Falls back to a DuckDB rewrite of the whole file when
 * its layout cannot be spliced. `limit` gates each DuckDB re-encoding.
 */
export async function rewriteWithout(db: Database, manifest: ParquetManifest, f: ParquetFile, visitorId: number, rowNumbers: number[],
  stats: { rows: number; min_ts: string; max_ts: string }, tally = { copied: 0, rewritten: 0 }, limit: Limit = unlimited): Promise<ParquetFile> {
  const dir = partitionDir(manifest.dataDir, f.tbl, f.site_id, f.month);
  ensureDir(dir);
  const abs = join(dir, `${crypto.randomUUID()}.parquet`);
  const out: ParquetFile = { path: manifest.rel(abs), tbl: f.tbl, site_id: f.site_id, month: f.month, ...stats };
  const src = manifest.abs(f.path);
  const vid = Math.trunc(visitorId);
  const held: FileHandle[] = [];
  const scratch = scratchDir(manifest.dataDir);
  // The writer's options and row-group size: a run of touched groups is written back as groups of the stored
  // size, not one large group whose next erasure would re-encode it all.
  const options = parquetOptions(f.tbl, FULL_ROW_GROUP);
  try {
    const old = await openSpliceFile(await open(src, 'r').then((fd) => { held.push(fd); return fd; }));
    // Row numbers → row groups.
    const starts: number[] = [];
    let n = 0;
    for (const g of old.footer.rowGroups) { starts.push(n); n += Number(g.numRows); }
    const groupOf = (row: number) => { let g = 0; while (g + 1 < starts.length && starts[g + 1]! <= row) g++; return g; };
    const touched = new Set(rowNumbers.map(groupOf));
    tally.rewritten += touched.size;
    tally.copied += old.footer.rowGroups.length - touched.size;
    const whole = (file: SpliceFile, groups?: number[]): SplicePart => ({ columns: Object.fromEntries(old.footer.columns.map((c) => [c.name, { file, column: c.name }])), groups });
    mkdirSync(scratch, { recursive: true });
    // Every run of touched groups is re-encoded at once, each when `limit` gives it a slot (the caller shares
    // the slots between files, so no core idles while one file's last runs are encoded), then spliced in order.
    const encoded = runs([...touched]).map((run) => limit(async () => {
      const from = starts[run[0]!]!;
      const to = run.at(-1)! + 1 < starts.length ? starts[run.at(-1)! + 1]! : n;
      const tmp = join(scratch, `${crypto.randomUUID()}.parquet`);
      try {
        // Numbers of our own (row numbers, the visitor id): spliced, since COPY takes no parameters.
        await db.exec(`COPY (SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlPath(src)}, file_row_number = true, hive_partitioning = false)
          WHERE file_row_number >= ${from} AND file_row_number < ${to} AND visitor_id <> ${vid}) TO ${sqlPath(tmp)} (${options})`);
        const fd = await open(tmp, 'r');
        held.push(fd);
        return { run, file: await openSpliceFile(fd) };
      } finally {
        rmSync(tmp, { force: true });
      }
    }));
    const settled = await Promise.allSettled(encoded);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const byStart = new Map(settled.map((r) => (r as PromiseFulfilledResult<{ run: number[]; file: SpliceFile }>).value).map((x) => [x.run[0]!, x]));
    const parts: SplicePart[] = [];
    let copied: number[] = [];
    for (let g = 0; g <= old.footer.rowGroups.length; g++) {
      if (g < old.footer.rowGroups.length && !touched.has(g)) { copied.push(g); continue; }
      if (copied.length) parts.push(whole(old, copied));
      copied = [];
      if (g === old.footer.rowGroups.length) break;
      const { run, file } = byStart.get(g)!;
      parts.push(whole(file));
      g = run.at(-1)!;
    }
    async function* each() { yield* parts; }
    await writeAll(abs, splice(old.footer, each()));
  } catch (e) {
    rmSync(abs, { force: true });
    if (!(e instanceof SpliceMismatch)) throw e;
    // A file of another layout: the whole file through DuckDB.
    try {
      await limit(() => db.exec(`COPY (SELECT * FROM read_parquet(${sqlPath(src)}, hive_partitioning = false) WHERE visitor_id <> ${vid}) TO ${sqlPath(abs)} (${options})`));
      await syncFile(abs);
    } catch (again) {
      rmSync(abs, { force: true });
      throw again;
    }
  } finally {
    for (const fd of held) await fd.close().catch(() => {});
  }
  await syncDir(dir);
  return out;
}
