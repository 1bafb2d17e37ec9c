// One-at-a-time runners: Serial for the writers of the analytics tables (loader, identify, compaction):
// DuckDB would abort one of two transactions updating the same rows; queueing them avoids that.
// SerialByKey for a check-then-write on metadata (a limit, a uniqueness): see its comment.
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => {});
    return next;
  }

  /**
   * Waits for this queue's turn and keeps it until the returned function is called: for work that runs its long
   * part outside the queue and needs the queue only for its last step (storage/hot-flush-aside.ts).
   */
  async hold(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await new Promise<void>((turn) => { void this.run(() => { turn(); return held; }); });
    return release;
  }
}

/**
 * One queue per key (an organization, an e-mail, a site): runs of one key go one at a time, other keys
 * run freely. DuckDB's transactions are snapshot-isolated and it has no row locks or serializable
 * predicates, so "count, then insert if under the limit" in one transaction is not atomic: thirty of them
 * started together all see nine rows. This server is the only process on its DATA_DIR (the database file is
 * locked), so a queue in memory makes the check and the write one step. Idle keys leave no entry behind.
 */
export class SerialByKey {
  private tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
