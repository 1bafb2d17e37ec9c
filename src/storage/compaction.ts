// Compaction: closed visits move from the hot visits table into Parquet files (sorted by time, one file
// per site, month and run), registered in parquet_files in the same transaction that deletes the hot rows.
// Events never stay hot: the loader writes them to Parquet.
// Small files of a month are merged in tiers of similar size, so a row is rewritten a few times at most.
// A site whose first-occurrence marks went stale (an import of past data) has them recomputed here.
import { rmSync } from 'node:fs';
import type { Database } from './database.ts';
import type { Serial } from './serial.ts';
import type { ParquetFile, ParquetManifest } from './parquet-layout.ts';
import { writingFiles } from './parquet-writer.ts';
import { log } from '../log.ts';
import { rebuildMarks } from './marks.ts';
import { fillValueMarks } from './fill-value-marks.ts';
import { enforceRetention, type RetentionResult } from './retention.ts';
import { flushHotEvents, hotEventRows, HOT_FLUSH_ROWS } from './hot-events.ts';
import { flushAside } from './hot-flush-aside.ts';
import { ImportHold, type HoldLimits } from './import-hold.ts';
import { writeClosedVisits } from './closed-visits.ts';
import { pausePoint } from './pause-point.ts';
import { mergeBeside, mergeGroups } from './compaction-merge.ts';

/** A visit is closed once no event can join it: 30 minutes of inactivity, plus slack for a loader backlog. */
const CLOSED_AFTER_MS = 35 * 60 * 1000;
/** Merged-away files stay readable this long for queries already planned against them. */
const DELETE_GRACE_MS = 60_000;
/** The minute's compaction leaves hot events to a migration still sending requests until this long after the last. */
const IMPORT_IDLE_MS = 2 * 60_000;
/** A site whose marks failed to rebuild waits 1, 2, 4 … minutes, at most an hour, before the next try. */
const REMARK_RETRY_MAX_MS = 60 * 60_000;

export type CompactionResult = { files: number; visits: number; merged: number; remarked: number; flushed?: number; retention?: RetentionResult };
/** A round's work in the writers' queue, and whether its merges (beside the queue, after it) are due. */
type Round = { out: CompactionResult; merging: boolean; t0: number; flushMs: number; visitsMs: number };

const nothing = (): CompactionResult => ({ files: 0, visits: 0, merged: 0, remarked: 0, flushed: 0 });

export class Compactor {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private graveyard: { timer: ReturnType<typeof setTimeout>; bury: () => void }[] = [];
  /**
   * Sites whose marks failed to rebuild, and when to try again. A rebuild that runs out of memory (a big
   * site, a low DUCKDB_MEMORY_LIMIT) would otherwise hold the loader's turn for tens of seconds every minute
   * for as long as it fails; meanwhile queries of that site count exactly (query/marks.ts), only slower.
   */
  private remarkRetry = new Map<string, { failures: number; at: number }>();
  /** The hot-event flush running beside the writers' queue (hot-flush-aside.ts), if any. */
  private aside: Promise<void> | undefined;
  /** The last flush aside gave up (a hot row changed under it): the next one runs in the queue, where nothing can. */
  private asideGaveUp = false;
  /** A round's merges under way beside the queue (compaction-merge.ts): the next round leaves merging to them. */
  private merges: Promise<number> | undefined;
  /** Set by stop(): merges under way end after their current file. */
  private stopping = false;
  /** Scheduled rounds wait while a migration's imports keep arriving (import-hold.ts). */
  private hold: ImportHold;

  /**
   * `graceMs`: how long replaced files stay on disk at least (tests shorten it). `hotFlushRows`: hot events that
   * make an import's compaction flush them (HOT_FLUSH_ROWS; tests lower it). `hold`: tests shorten its limits.
   */
  constructor(private db: Database, private manifest: ParquetManifest, private serial: Serial,
    private opts: { intervalMs?: number; canRun?: () => boolean; graceMs?: number; hotFlushRows?: number; hold?: Partial<HoldLimits> } = {}) {
    this.hold = new ImportHold(() => this.scheduled(), opts.hold);
  }

  start() {
    this.timer = setInterval(() => this.scheduled(), this.opts.intervalMs ?? 60_000);
  }

  /** The minute's round, or a held one released. */
  private scheduled() {
    if (this.opts.canRun && !this.opts.canRun()) return;
    void this.run(Date.now(), { scheduled: true }).catch((e) => log.error('compaction failed', { error: String(e) }));
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.hold.stop();
    this.stopping = true;
    await this.aside;
    await this.running.catch(() => {});
    await this.merges?.catch(() => {});
    // No query can still be reading merged-away files once the server has stopped.
    for (const g of this.graveyard.splice(0)) { clearTimeout(g.timer); g.bury(); }
  }

  /**
   * Writes the hot events to Parquet, compacts every visit closed before `now - CLOSED_AFTER_MS`, then merges
   * small files. `afterImport`: skipped unless flushDue, so that many import requests share one round of
   * file writing. The minute's run writes the hot events once HOT_FLUSH_ROWS wait or no import came for
   * IMPORT_IDLE_MS: during a migration's stream of requests every flush is a large one. `scheduled`: the
   * minute's round, which waits while imports keep arriving (import-hold.ts), unless marks or retention need it.
   */
  run(now = Date.now(), opts: { afterImport?: boolean; scheduled?: boolean } = {}): Promise<CompactionResult> {
    // Recorded when the import answers, not when this call's turn in the queue comes: a round queued ahead of it
    // would otherwise take the imports for stopped and merge files between their requests.
    if (opts.afterImport) this.hold.imported(now);
    const p = this.serial.run(async () => {
      const why = opts.afterImport || this.hold.sinceImport(now) < IMPORT_IDLE_MS ? await this.flushDue() : 'idle';
      if (opts.afterImport && !why) return null;
      // Only a million hot events waiting: the flush runs beside the writers' queue (the round's rest behind it),
      // while the client sends (and the server reads and loads) its next requests; an import answers now. Stale
      // marks and retention need every hot event in files: flushed in the queue, before the import answers.
      if (why === 'hot') {
        this.flushBeside(now);
        if (opts.afterImport) return null;
      }
      if (opts.scheduled && why !== 'files' && await this.held(now)) return null;
      return this.round(now, why === 'files' || why === 'idle');
    }).then((r) => (r ? this.finish(r) : nothing()));
    this.running = p;
    return p;
  }

  /**
   * Starts a flush of the hot events beside the writers' queue, unless one runs; after one that gave up, the
   * whole round (its flush included) is queued instead, as it always was before.
   */
  private flushBeside(now: number) {
    if (this.aside) return;
    if (this.asideGaveUp) {
      this.asideGaveUp = false;
      this.queueRound(now, true);
      return;
    }
    this.aside = flushAside(this.db, this.manifest, this.serial).then((out) => {
      if (!out) {
        this.asideGaveUp = true;
        log.info('hot events flush gave up: hot rows changed meanwhile');
        return;
      }
      log.info('hot events flushed beside imports', out);
      // The rest of the round (closed visits, merges), behind the imports queued meanwhile, or once they stop.
      this.queueRound(now, false, true);
    }, (e) => {
      this.asideGaveUp = true;
      log.error('hot events flush failed', { error: String(e) });
    }).finally(() => { this.aside = undefined; });
  }

  /** A round behind the writers queued meanwhile, not awaited by the import that set it off; `holdable`: see held(). */
  private queueRound(now: number, flush: boolean, holdable = false) {
    this.running = this.serial.run(async () => (holdable && await this.held(Date.now()) ? null : this.round(now, flush)))
      .then((r) => r && this.finish(r))
      .catch((e) => log.error('compaction after import failed', { error: String(e) }));
  }

  /** Whether the round waits for the imports arriving to stop (bounded: import-hold.ts). */
  private held(now: number): Promise<boolean> {
    return this.hold.hold(now, async () => Number((await this.db.query<{ n: number }>('SELECT count(*) AS n FROM visits'))[0]!.n));
  }

  /** One round's work in the queue: `flush` writes the hot events first. Its merges follow beside the queue (finish). */
  private async round(now: number, flush: boolean): Promise<Round> {
    this.hold.ran();
    // Decided before the round's work: imports waiting in the queue behind it cannot answer meanwhile, so after a
    // long visits step they would look stopped (a 16 s step at 7M imported, then 21 s of merges mid-migration).
    const merging = !this.hold.arriving(Date.now());
    const t0 = performance.now();
    // First: retention, marks and merges work on files only. On every core, as the import that filled it.
    const flushed = flush ? await writingFiles(this.db, this.manifest, (tx, written) => flushHotEvents(tx, this.manifest, written)) : 0;
    // The WAL now holds every flushed row twice (inserted, then deleted): checkpointed now it writes none of them
    // to the database file, where the automatic checkpoint, once the WAL reaches its threshold mid-import, wrote
    // the hot rows of that moment only for the next flush to delete them (a 9.3 s commit at ~2.3M imported, load ~6). Refused while
    // another transaction runs; the automatic one then comes as before.
    if (flushed) await this.db.exec('CHECKPOINT').catch(() => {});
    const t1 = performance.now();
    const out = await this.compact(new Date(now - CLOSED_AFTER_MS).toISOString());
    await pausePoint('compaction:visits-written');
    const t2 = performance.now();
    out.flushed = flushed;
    // Before merging: files it empties are not merged first; and marks recomputed before, so that merges do not
    // rewrite files the recompute then replaces.
    out.retention = await enforceRetention(this.db, this.manifest, now, (files) => this.retire(files));
    out.remarked = await this.remark(now);
    // Imports that waited in the queue behind this round count as arriving from its end on.
    if (!merging) this.hold.imported(Date.now());
    return { out, merging, t0, flushMs: Math.round(t1 - t0), visitsMs: Math.round(t2 - t1) };
  }

  /**
   * A round's merges, beside the queue, then its log line. While a migration's imports keep arriving (a round the
   * hot visits' bound released), merges wait for the round after the last one: merging a month's flushed files is
   * most of such a round (~6M events rewritten at 10M stored), and later flushes would make them merge again.
   * Queries read unmerged files as well, only more of them. One round's merges at a time: another round's would
   * pick the same files.
   */
  private async finish({ out, merging, t0, flushMs, visitsMs }: Round): Promise<CompactionResult> {
    const t3 = performance.now();
    if (merging && !this.merges) {
      this.merges = this.mergeAll();
      try { out.merged = await this.merges; } finally { this.merges = undefined; }
    }
    const ms = (a: number, b: number) => Math.round(b - a);
    if (out.files || out.merged || out.remarked || out.flushed || out.retention?.sites) {
      log.info('compacted', { ...out, ...(merging ? {} : { mergesWait: true }), ms: ms(t0, performance.now()), flushMs, visitsMs, mergeMs: ms(t3, performance.now()) });
    }
    return out;
  }

  private async mergeAll(): Promise<number> {
    let merged = 0;
    for (const g of mergeGroups(this.manifest)) if (!this.stopping) merged += await mergeBeside(this.db, this.manifest, this.serial, g, (files) => this.retire(files));
    return merged;
  }

  /**
   * HOT_FLUSH_ROWS events wait, or marks went stale (recomputed from the files, before an import answers), or
   * a site keeps a retention period (enforced on the files, at once on what was imported).
   */
  private async flushDue(): Promise<'hot' | 'files' | null> {
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT (SELECT count(*) FROM marks_stale) + (SELECT count(*) FROM sites WHERE retention_months IS NOT NULL) AS n`);
    if (Number(n) > 0) return 'files';
    return (await hotEventRows(this.db)) >= (this.opts.hotFlushRows ?? HOT_FLUSH_ROWS) ? 'hot' : null;
  }

  private async compact(cutoffIso: string): Promise<CompactionResult> {
    const files = await writingFiles(this.db, this.manifest, (tx, written) => writeClosedVisits(tx, this.manifest, written, cutoffIso));
    return { files: files.length, visits: files.reduce((n, f) => n + f.rows, 0), merged: 0, remarked: 0 };
  }

  /**
   * Recomputes the marks of every site in marks_stale that is not waiting to retry, then fills the marks per value
   * of the sites migration 0016 left without (value_marks_pending, not stale: a recompute fills them too); returns
   * how many sites.
   */
  private async remark(now: number): Promise<number> {
    const stale = await this.db.query<{ site_id: string; fill: boolean }>(`SELECT site_id, false AS fill FROM marks_stale
      UNION ALL SELECT site_id, true FROM value_marks_pending WHERE site_id NOT IN (SELECT site_id FROM marks_stale)`);
    let done = 0;
    for (const { site_id, fill } of stale) {
      const retry = this.remarkRetry.get(site_id);
      if (retry && now < retry.at) continue;
      const t0 = performance.now();
      try {
        const old = await writingFiles(this.db, this.manifest, (tx, written) => (fill ? fillValueMarks : rebuildMarks)(tx, this.manifest, written, site_id),
          (replaced) => this.retire(replaced));
        this.remarkRetry.delete(site_id);
        done++;
        log.info(fill ? 'marks per source and channel filled' : 'first-occurrence marks recomputed', { site: site_id, files: old.length, ms: Math.round(performance.now() - t0) });
      } catch (e) {
        const failures = (retry?.failures ?? 0) + 1;
        const retryInMs = Math.min(REMARK_RETRY_MAX_MS, 60_000 * 2 ** (failures - 1));
        this.remarkRetry.set(site_id, { failures, at: now + retryInMs });
        log.error(fill ? 'marks per source and channel could not be filled; its sources and channels are counted exactly (slower) until they are' : 'first-occurrence marks could not be recomputed; the site is counted exactly (slower) until they are', {
          site: site_id, failures, retryInMs, error: String(e),
        });
      }
    }
    return done;
  }

  /**
   * Replaced files leave the manifest now and the disk after a grace period (for readers that list files
   * without a snapshot: exports, the mirrors), and not before every query snapshot that may list them is done.
   */
  private retire(files: ParquetFile[]) {
    this.manifest.remove(files.map((f) => f.path));
    const seen = this.manifest.mark();
    const doomed = files.map((f) => this.manifest.abs(f.path));
    const bury = () => { for (const p of doomed) rmSync(p, { force: true }); };
    this.graveyard.push({ timer: setTimeout(() => this.manifest.afterViewsBefore(seen, bury), this.opts.graceMs ?? DELETE_GRACE_MS), bury });
  }

  /** A deleted site's marks are no longer retried (storage/module.ts drops its rows and files). */
  forgetSite(siteId: string) {
    this.remarkRetry.delete(siteId);
  }
}
