// Loads sealed log segments (events to Parquet, visits and visitors to DuckDB; load-sql.ts), a batch of
// segments per transaction, then deletes them.
// A segment's name is recorded in the same transaction, so a replay after a crash never loads it twice.
// Segments wait until the oldest has been queued for the load interval: much of a load's cost is per load,
// not per event (its statements join against the visitor tables, which grow with the history), so loading
// every 5 s instead of every second costs a third to half the CPU per event. The events are durable from
// the moment they are acknowledged; only their visibility to queries waits.
import { mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BACKGROUND_THREADS, isOutOfMemory, type Database } from '../storage/database.ts';
import { log } from '../log.ts';
import { load } from './load-sql.ts';
import type { ParquetManifest } from '../storage/parquet-layout.ts';
import { readLogSql } from './log-format.ts';
import type { Serial } from '../storage/serial.ts';
import { syncDir } from '../storage/durable-file.ts';
import { withoutErased } from '../storage/erase-visitor.ts';

export type LoaderOptions = {
  /** How long the oldest queued segment waits for others to join its load (0: load each as it comes). */
  intervalMs?: number;
  /** A load takes at most this many segments… */
  maxSegmentsPerLoad?: number;
  /**
   * …and at most this many bytes of them (one segment at least): a load's memory grows with its size, and
   * what the allocators keep after the biggest loads stays in the RSS. A queue holding more than one load
   * loads at once, without waiting for the interval. The default (40 MB) takes two of the 16 MB segments a
   * busy log rotates: at 24 MB each load took one, and two cost the loader ~30% less CPU per event
   * (bench/ingest-load: 17.5 → 12.5 µs into an empty store, 29.2 → 20.9 into the 10M-event one), the event
   * route +7–15% events/s in 3 pairs, with the RSS after 5M events no higher (388 MB, peak 654).
   */
  maxBytesPerLoad?: number;
};

type Queued = { path: string; at: number; bytes: number };

export class Loader {
  private queue: Queued[] = [];
  private running: Promise<void> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set while replaying and once the server stops: every queued segment loads without waiting. */
  private urgent = false;
  private intervalMs: number;
  private maxSegmentsPerLoad: number;
  private maxBytesPerLoad: number;
  /** Resolved with true once the queue is empty, with false when a load fails meanwhile (see settle). */
  private idleWaiters: ((allLoaded: boolean) => void)[] = [];
  /** Set once the server stops and gave up on a failing load: nothing runs any more. */
  private stopped = false;
  private failures = 0;
  /** Names of loaded segments whose files are deleted: their ingest_segments rows go with the next load. */
  private forget: string[] = [];
  loadedEvents = 0;

  constructor(private db: Database, private serial: Serial, private manifest: ParquetManifest, opts: LoaderOptions = {}) {
    this.intervalMs = opts.intervalMs ?? 5000;
    this.maxSegmentsPerLoad = opts.maxSegmentsPerLoad ?? 16;
    this.maxBytesPerLoad = opts.maxBytesPerLoad ?? 40 * 1024 * 1024;
  }

  enqueue(path: string) {
    this.queue.push({ path, at: Date.now(), bytes: sizeOf(path) });
    this.kick();
  }

  /** How long the oldest queued segment has waited (0 when none is). */
  lagMs(): number {
    return this.queue.length ? Date.now() - this.queue[0]!.at : 0;
  }

  /** Loads segments left over from an earlier run; those already recorded as loaded are only deleted. */
  async replay(paths: string[]) {
    if (!paths.length) return;
    const names = paths.map((p) => basename(p));
    const done = new Set(
      (await this.db.query<{ name: string }>('SELECT name FROM ingest_segments WHERE name = ANY(?::VARCHAR[])', [names])).map((r) => r.name),
    );
    const loaded = paths.filter((p) => done.has(basename(p)));
    const at = Date.now();
    this.queue.push(...paths.filter((p) => !done.has(basename(p))).map((path) => ({ path, at, bytes: sizeOf(path) })));
    await this.retire(loaded);
    // A segment that fails to load does not keep the server from starting: it is retried in the background.
    if (!(await this.settle())) log.warn('ingest log: segments left from the last run failed to load; retrying in the background', { segments: this.queue.length });
    this.urgent = false;
  }

  /**
   * Loads every queued segment now (the server is stopping). A load that fails is not retried here: its
   * segments stay in the log, which the next start replays (stopping must not wait out a minute of retries).
   */
  async flush(): Promise<void> {
    if (await this.settle()) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.waitTimer);
    log.warn('ingest log: segments left unloaded at stop; the next start loads them', { segments: this.queue.length });
  }

  /** Loads every queued segment without waiting; true once none is left, false as soon as a load fails. */
  private settle(): Promise<boolean> {
    this.urgent = true;
    // A load waiting out a retry's back-off goes now.
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.kick();
    if (!this.queue.length && !this.running) return Promise.resolve(true);
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private release(allLoaded: boolean) {
    for (const w of this.idleWaiters.splice(0)) w(allLoaded);
  }

  private due(): boolean {
    return this.urgent || this.lagMs() >= this.intervalMs || this.queue.length > this.nextBatch(this.maxSegmentsPerLoad).length;
  }

  /** The segments the next load takes: the oldest, then more while within the limits. */
  private nextBatch(maxSegments: number): string[] {
    const batch: string[] = [];
    let bytes = 0;
    for (const q of this.queue) {
      if (batch.length && (batch.length >= maxSegments || bytes + q.bytes > this.maxBytesPerLoad)) break;
      batch.push(q.path);
      bytes += q.bytes;
    }
    return batch;
  }

  private kick() {
    if (this.stopped || this.running || this.retryTimer || !this.queue.length) return;
    if (!this.due()) {
      this.waitTimer ??= setTimeout(() => { this.waitTimer = undefined; this.kick(); }, this.intervalMs - this.lagMs());
      return;
    }
    clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    // drain() keeps load failures to itself; anything else (deleting loaded segments) is logged, not left unhandled.
    this.running = this.drain().catch((e) => log.error('ingest loader failure', { error: String(e) })).finally(() => {
      this.running = undefined;
      if (this.queue.length && !this.retryTimer) this.kick();
      else if (!this.queue.length) this.release(true);
    });
  }

  private async drain() {
    while (this.queue.length && this.due()) {
      // After repeated failures, segments go one at a time so one bad file cannot hold up the rest.
      const batch = this.nextBatch(this.failures >= 3 ? 1 : this.maxSegmentsPerLoad);
      try {
        await this.load(batch);
        this.failures = 0;
      } catch (e) {
        this.failures++;
        // Out of memory passes (a big query, a burst), and the segment is durable where it is: it is retried
        // for as long as it takes, never set aside.
        if (batch.length === 1 && this.failures >= 6 && !isOutOfMemory(e)) {
          quarantine(batch[0]!, e);
          this.queue.shift();
          this.failures = 0;
          continue;
        }
        // Segments stay on disk and queued; a transient conflict (e.g. a concurrent site delete) clears on retry.
        const delay = Math.min(30_000, 1000 * 2 ** (this.failures - 1));
        log.error('ingest load failed, will retry', { segments: batch.length, retryInMs: delay, error: String(e) });
        this.retryTimer = setTimeout(() => { this.retryTimer = undefined; this.kick(); }, delay);
        this.release(false);
        return;
      }
      this.queue.splice(0, batch.length);
      await this.retire(batch);
    }
  }

  /**
   * Deletes loaded segments; their records go with the next load. Only once the deletions are on disk
   * (directory synced), or a power loss could bring back a file whose record is gone and load it twice.
   */
  private async retire(paths: string[]) {
    const gone = paths.filter(unlink);
    if (!gone.length) return;
    await syncDir(dirname(gone[0]!));
    this.forget.push(...gone.map((p) => basename(p)));
  }

  private async load(paths: string[]) {
    const t0 = performance.now();
    const forgotten = this.forget.splice(0);
    const existing = paths.filter((p) => sizeOf(p) > 0);
    // Events of visitors erased after they were accepted are dropped here (storage/erase-visitor.ts).
    const source = existing.length ? { sql: withoutErased(readLogSql), params: [existing], inArrivalOrder: true } : null;
    const rows = await load(this.db, this.serial, this.manifest, source, async (tx, n) => {
      for (const p of paths) {
        await tx.exec('INSERT INTO ingest_segments VALUES (?, ?, now()::TIMESTAMP) ON CONFLICT DO NOTHING', [basename(p), n]);
      }
      // A segment's record only guards its file; once the file is gone the record can go too.
      if (forgotten.length) await tx.exec('DELETE FROM ingest_segments WHERE name = ANY(?::VARCHAR[])', [forgotten]);
    }, { threads: BACKGROUND_THREADS }).catch((e) => {
      this.forget.unshift(...forgotten);
      throw e;
    });
    this.loadedEvents += rows;
    log.debug('ingest loaded', { segments: paths.length, rows, ms: Math.round(performance.now() - t0) });
  }
}

/** A segment DuckDB keeps refusing is set aside (never deleted) so an operator can inspect and re-import it. */
function quarantine(p: string, e: unknown) {
  const dir = join(dirname(p), 'failed');
  mkdirSync(dir, { recursive: true });
  renameSync(p, join(dir, basename(p)));
  log.error('ingest segment kept failing to load (about a minute of retries); moved aside', { segment: basename(p), dir, error: String(e) });
}

/** 0 for a file that is gone. */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** True once the file is gone (deleted now or before); a file that could not be deleted keeps its record. */
function unlink(p: string): boolean {
  try {
    unlinkSync(p);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
