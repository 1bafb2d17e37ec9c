// When compaction's round waits for a migration's stream of imports: closed visits and file merges would
// otherwise run in the writers' queue between import requests (0.5–16 s a round at 9–10M stored), and a stream
// of imports writes them again and again. Held only while imports keep arriving, and bounded: by time since
// the first held round, and by the hot visits waiting; the round runs soon after the imports stop.
import { log } from '../log.ts';

/** Imports count as still arriving this long after the last one answered. */
export const IMPORT_QUIET_MS = 15_000;
/** A held round runs at the latest this long after it was first due. */
export const HOLD_MAX_MS = 10 * 60_000;
/**
 * Or once this many visits wait in the hot visits table (its memory, and the joins of each import with it). Small
 * enough that the round it releases is short (~1.2–1.5 s for ~0.6M visits, every ~2M events of a migration):
 * at 2M, one round of 2.1M visits stalled the queue 5.3 s and took that million of a 10M import under 30k
 * events/s. Visits are written once either way; only merges wait for the imports to stop.
 */
export const HOLD_MAX_VISITS = 500_000;

export type HoldLimits = { quietMs: number; maxMs: number; maxVisits: number };

export class ImportHold {
  private lastImport = 0;
  private heldSince = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private limits: HoldLimits;

  /** `release`: runs the held round (the compactor's); called once the imports have stopped. */
  constructor(private release: () => void, limits: Partial<HoldLimits> = {}) {
    this.limits = { quietMs: IMPORT_QUIET_MS, maxMs: HOLD_MAX_MS, maxVisits: HOLD_MAX_VISITS, ...limits };
  }

  /** A large import answered (its events wait in the hot table). */
  imported(now = Date.now()) {
    this.lastImport = now;
  }

  /** Milliseconds since the last large import answered (since the epoch for none since start). */
  sinceImport(now: number): number {
    return now - this.lastImport;
  }

  /** Whether large imports are still arriving (one answered less than the quiet time ago). */
  arriving(now = Date.now()): boolean {
    return now - this.lastImport < this.limits.quietMs;
  }

  /** Whether a round due now waits; `hotVisits` is asked only when imports are arriving. */
  async hold(now: number, hotVisits: () => Promise<number>): Promise<boolean> {
    if (!this.arriving(now)) return false;
    if (this.heldSince && now - this.heldSince >= this.limits.maxMs) return false;
    const visits = await hotVisits();
    if (visits >= this.limits.maxVisits) return false;
    if (!this.heldSince) {
      this.heldSince = now;
      log.info('compaction held back while imports arrive', { hotVisits: visits });
    }
    this.arm();
    return true;
  }

  /** A round ran: nothing is held any more. */
  ran() {
    if (this.heldSince) log.info('held compaction ran', { heldMs: Date.now() - this.heldSince });
    this.heldSince = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Polls for the end of the stream (or the time bound), then releases the held round. */
  private arm() {
    if (this.timer) return;
    const check = () => {
      this.timer = undefined;
      const now = Date.now();
      if (!this.heldSince) return;
      if (now - this.lastImport >= this.limits.quietMs || now - this.heldSince >= this.limits.maxMs) this.release();
      else this.timer = setTimeout(check, Math.max(50, Math.min(1000, this.limits.quietMs / 4)));
    };
    this.timer = setTimeout(check, Math.max(50, Math.min(1000, this.limits.quietMs / 4)));
  }
}
