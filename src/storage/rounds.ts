// When a mirror of the registered Parquet files (object storage, ClickHouse) does its work: in rounds, one at a
// time, gathered a moment after a change, also on a slow poll (a store that was down is caught up with), and
// after a failed round again in 1, 2, 4 … s, at most BACKOFF_MAX_MS apart. A round's work is always the
// difference between the registry and the mirror, so running one more than needed costs nothing.
import { log } from '../log.ts';

const BACKOFF_MAX_MS = 30_000;

/** What a round may ask for: another round in this many ms (an object's grace ending), or nothing. */
export type RoundResult = number | undefined | void;

export class Rounds {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = 0;
  private poll: ReturnType<typeof setInterval> | undefined;
  private running: Promise<RoundResult> | undefined;
  private again = false;
  private failures = 0;
  /** Rounds run on their own only between start() and stop(); before, only sync() runs one. */
  private started = false;

  constructor(private round: () => Promise<RoundResult>, private o: { what: string; debounceMs: number; pollMs: number }) {}

  start() {
    this.started = true;
    this.poll = setInterval(() => this.kick(), this.o.pollMs);
    this.schedule(0);
  }

  /** Something changed: a round soon, unless one is waiting out a failure (the store is down). */
  kick() {
    if (this.running) this.again = true;
    else if (!this.failures) this.schedule(this.o.debounceMs);
  }

  /** One round now, after the one in flight (tests, and a caller that must see its files mirrored); throws its error. */
  async sync(): Promise<void> {
    while (this.running) await this.running.catch(() => {});
    await this.launch();
  }

  /** No more rounds; `last`: one last round first (what was sealed before stopping gets mirrored), its failure logged. */
  async stop(opts: { last?: boolean } = {}) {
    // Not started any more before the last round: its failure must not leave a retry timer behind.
    this.started = false;
    clearInterval(this.poll);
    clearTimeout(this.timer);
    this.timer = undefined;
    if (opts.last) await this.sync().catch((e) => log.warn(`${this.o.what} at stop failed`, { error: message(e) }));
    await this.running?.catch(() => {});
  }

  /** A round in `ms`, unless one is due sooner; one due later is brought forward. */
  private schedule(ms: number) {
    if (!this.started || (this.timer && this.timerAt <= Date.now() + ms)) return;
    clearTimeout(this.timer);
    this.timerAt = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.running) this.again = true;
      else this.launch().catch(() => {});
    }, ms);
  }

  /** Runs a round; after it, the next one it asked for, a retry after a failure, or one for changes made meanwhile. */
  private launch(): Promise<RoundResult> {
    const r = this.round();
    this.running = r;
    r.then((nextInMs) => {
      this.failures = 0;
      if (typeof nextInMs === 'number') this.schedule(nextInMs);
    }, (e) => {
      if (!this.started) return;
      this.failures++;
      const retryInMs = Math.min(BACKOFF_MAX_MS, 1000 * 2 ** (this.failures - 1));
      log.warn(`${this.o.what} failed; retrying`, { failures: this.failures, retryInMs, error: message(e) });
      this.again = false;
      this.schedule(retryInMs);
    }).finally(() => {
      if (this.running === r) this.running = undefined;
      if (this.again) { this.again = false; this.schedule(this.o.debounceMs); }
    });
    return r;
  }
}

const message = (e: unknown) => String((e as Error)?.message ?? e).slice(0, 300);
