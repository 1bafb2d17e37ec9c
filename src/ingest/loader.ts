// Moves sealed log segments into DuckDB, a batch of segments per transaction, then deletes them.
// A segment's name is recorded in the same transaction, so a replay after a crash never loads it twice.
import { unlinkSync, existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { Database } from '../storage/database.ts';
import { log } from '../log.ts';
import { loadRows } from './load-sql.ts';
import { readLogSql } from './log-format.ts';
import type { Serial } from '../storage/serial.ts';

export class Loader {
  private queue: string[] = [];
  private running: Promise<void> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private idleWaiters: (() => void)[] = [];
  loadedEvents = 0;

  constructor(private db: Database, private serial: Serial, private maxSegmentsPerLoad = 16) {}

  enqueue(path: string) {
    this.queue.push(path);
    this.kick();
  }

  /** Loads segments left over from an earlier run; those already recorded as loaded are only deleted. */
  async replay(paths: string[]) {
    if (!paths.length) return;
    const names = paths.map((p) => basename(p));
    const done = new Set(
      (await this.db.query<{ name: string }>('SELECT name FROM ingest_segments WHERE name = ANY(?::VARCHAR[])', [names])).map((r) => r.name),
    );
    for (const p of paths) {
      if (done.has(basename(p))) unlink(p);
      else this.queue.push(p);
    }
    this.kick();
    await this.idle();
  }

  /** Resolves when every queued segment is loaded. */
  idle(): Promise<void> {
    if (!this.queue.length && !this.running) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  pending() { return this.queue.length; }

  private kick() {
    if (this.running || this.retryTimer || !this.queue.length) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length && !this.retryTimer) this.kick();
      else if (!this.queue.length) for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  private async drain() {
    while (this.queue.length) {
      const batch = this.queue.slice(0, this.maxSegmentsPerLoad);
      try {
        await this.load(batch);
      } catch (e) {
        // Segments stay on disk and queued; a transient conflict (e.g. a concurrent site delete) clears on retry.
        log.error('ingest load failed, will retry', { segments: batch.length, error: String(e) });
        this.retryTimer = setTimeout(() => { this.retryTimer = undefined; this.kick(); }, 1000);
        return;
      }
      this.queue.splice(0, batch.length);
      for (const p of batch) unlink(p);
    }
  }

  private async load(paths: string[]) {
    const existing = paths.filter((p) => existsSync(p));
    const rows = await this.serial.run(() =>
      this.db.transaction(async (tx) => {
        const n = existing.length ? await loadRows(tx, readLogSql, [existing]) : 0;
        for (const p of paths) {
          await tx.exec('INSERT INTO ingest_segments VALUES (?, ?, now()::TIMESTAMP) ON CONFLICT DO NOTHING', [basename(p), n]);
        }
        return n;
      }),
    );
    this.loadedEvents += rows;
    log.debug('ingest loaded', { segments: paths.length, rows });
  }
}

function unlink(p: string) {
  try { unlinkSync(p); } catch { /* already gone */ }
}
