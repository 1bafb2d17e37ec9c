// Compaction: rows of closed visits move from the hot events/visits tables into Parquet files (zstd,
// sorted by time, one file per site, month and run), registered in parquet_files in the same transaction
// that deletes the hot rows; small files of a month are later merged into one.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Tx } from './database.ts';
import type { Serial } from './serial.ts';
import { ensureDir, partitionDir, parquetRoot, sqlPath, TIME_COL, type ParquetFile, type ParquetManifest, type Table } from './parquet-layout.ts';
import { log } from '../log.ts';

/** A visit is closed once no event can join it: 30 minutes of inactivity, plus slack for a loader backlog. */
const CLOSED_AFTER_MS = 35 * 60 * 1000;
const MERGE_MIN_FILES = 4;
const SMALL_FILE_ROWS = 500_000;
/** Merged-away files stay readable this long for queries already planned against them. */
const DELETE_GRACE_MS = 60_000;

export type CompactionResult = { files: number; events: number; visits: number; merged: number };

let runSeq = 0;

export class Compactor {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private graveyard: { timer: ReturnType<typeof setTimeout>; bury: () => void }[] = [];

  constructor(private db: Database, private manifest: ParquetManifest, private serial: Serial, private opts: { intervalMs?: number; canRun?: () => boolean } = {}) {}

  start() {
    this.timer = setInterval(() => {
      if (this.opts.canRun && !this.opts.canRun()) return;
      void this.run().catch((e) => log.error('compaction failed', { error: String(e) }));
    }, this.opts.intervalMs ?? 60_000);
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.running.catch(() => {});
    // No query can still be reading merged-away files once the server has stopped.
    for (const g of this.graveyard.splice(0)) { clearTimeout(g.timer); g.bury(); }
  }

  /** Compacts every visit closed before `now - CLOSED_AFTER_MS`, then merges small files. */
  run(now = Date.now()): Promise<CompactionResult> {
    const p = this.serial.run(async () => {
      const t0 = performance.now();
      const out = await this.compact(new Date(now - CLOSED_AFTER_MS).toISOString());
      out.merged = await this.mergeSmall();
      if (out.files) log.info('compacted', { ...out, ms: Math.round(performance.now() - t0) });
      return out;
    });
    this.running = p;
    return p;
  }

  private async compact(cutoffIso: string): Promise<CompactionResult> {
    const result: CompactionResult = { files: 0, events: 0, visits: 0, merged: 0 };
    const written: ParquetFile[] = [];
    const closed = `compact_closed_${++runSeq}`;
    try {
      await this.db.transaction(async (tx) => {
        await tx.exec(`CREATE TEMP TABLE ${closed} AS SELECT site_id, visit_id FROM visits WHERE end_ts < ?::TIMESTAMP`, [cutoffIso]);
        const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*) AS n FROM ${closed}`);
        if (!n) return;
        for (const tbl of ['events', 'visits'] as const) {
          const rows = `SELECT t.* FROM ${tbl} t SEMI JOIN ${closed} c ON t.site_id = c.site_id AND t.visit_id = c.visit_id`;
          const parts = await tx.query<{ site_id: string; month: string }>(
            `SELECT DISTINCT site_id, strftime(${TIME_COL[tbl]}, '%Y-%m') AS month FROM (${rows})`,
          );
          for (const { site_id, month } of parts) {
            const f = await this.writeFile(tx, tbl, site_id, month,
              `${rows} WHERE t.site_id = '${site_id}' AND strftime(t.${TIME_COL[tbl]}, '%Y-%m') = '${month}'`);
            written.push(f);
            result[tbl] += f.rows;
          }
          await tx.exec(`DELETE FROM ${tbl} t USING ${closed} c WHERE t.site_id = c.site_id AND t.visit_id = c.visit_id`);
        }
        await tx.exec(`DROP TABLE ${closed}`);
      });
    } catch (e) {
      for (const f of written) rmSync(this.manifest.abs(f.path), { force: true });
      throw e;
    }
    for (const f of written) this.manifest.add(f);
    result.files = written.length;
    return result;
  }

  /** COPY the selected rows (site id and month already checked by partitionDir) to a new file and register it. */
  private async writeFile(tx: Tx, tbl: Table, siteId: string, month: string, select: string): Promise<ParquetFile> {
    const dir = partitionDir(this.manifest.dataDir, tbl, siteId, month);
    ensureDir(dir);
    const abs = join(dir, `${crypto.randomUUID()}.parquet`);
    const col = TIME_COL[tbl];
    await tx.exec(`COPY (${select} ORDER BY ${col}) TO ${sqlPath(abs)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`);
    const [s] = await tx.query<{ rows: number; min_ts: string; max_ts: string }>(
      `SELECT count(*) AS rows, min(${col})::VARCHAR AS min_ts, max(${col})::VARCHAR AS max_ts FROM read_parquet(${sqlPath(abs)})`,
    );
    const f: ParquetFile = { path: this.manifest.rel(abs), tbl, site_id: siteId, month, rows: s!.rows, min_ts: s!.min_ts, max_ts: s!.max_ts };
    await tx.exec('INSERT INTO parquet_files VALUES (?, ?, ?, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, now()::TIMESTAMP)', [f.path, tbl, siteId, month, f.rows, f.min_ts, f.max_ts]);
    return f;
  }

  /** Months that gathered many small files (one per compaction run) become one sorted file. */
  private async mergeSmall(): Promise<number> {
    let merged = 0;
    for (const siteId of this.manifest.sites()) {
      for (const tbl of ['events', 'visits'] as const) {
        for (const month of this.manifest.months(tbl, siteId)) {
          const small = this.manifest.all(tbl, siteId, month).filter((f) => f.rows < SMALL_FILE_ROWS);
          if (small.length < MERGE_MIN_FILES) continue;
          await this.merge(tbl, siteId, month, small);
          merged += small.length;
        }
      }
    }
    return merged;
  }

  private async merge(tbl: Table, siteId: string, month: string, files: ParquetFile[]) {
    const list = files.map((f) => sqlPath(this.manifest.abs(f.path))).join(', ');
    let made: ParquetFile | undefined;
    try {
      await this.db.transaction(async (tx) => {
        made = await this.writeFile(tx, tbl, siteId, month, `SELECT * FROM read_parquet([${list}])`);
        await tx.exec('DELETE FROM parquet_files WHERE path = ANY(?::VARCHAR[])', [files.map((f) => f.path)]);
      });
    } catch (e) {
      if (made) rmSync(this.manifest.abs(made.path), { force: true });
      throw e;
    }
    this.manifest.add(made!);
    this.manifest.remove(files.map((f) => f.path));
    const doomed = files.map((f) => this.manifest.abs(f.path));
    const bury = () => { for (const p of doomed) rmSync(p, { force: true }); };
    this.graveyard.push({ timer: setTimeout(bury, DELETE_GRACE_MS), bury });
  }

  /** Site-delete hook: its registry rows and files go; the hot rows are deleted by the sites service. */
  async dropSite(siteId: string) {
    await this.serial.run(() => this.db.exec('DELETE FROM parquet_files WHERE site_id = ?', [siteId]));
    this.manifest.dropSite(siteId);
    for (const tbl of ['events', 'visits']) rmSync(join(parquetRoot(this.manifest.dataDir), tbl, `site=${siteId}`), { recursive: true, force: true });
  }
}
