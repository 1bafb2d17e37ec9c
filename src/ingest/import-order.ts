// Arrival order of a site's imports: a migration may keep several requests in flight (the server reads and
// validates one body while it loads another), and their loads must still enter the writers' queue in the order
// the requests arrived. A history sent oldest first then loads oldest first: a load of events older than a
// visitor's stored ones would mark the site's first-occurrence marks stale, and compaction would recompute them
// over the whole history (storage/marks.ts).

export type Turn = {
  /** Resolves once every earlier import of the site has queued its load or ended. */
  ready: Promise<void>;
  /** This import has queued its load, or ended without one: the next may go. Idempotent. */
  pass: () => void;
};

export class ImportOrder {
  /** Per site, what the latest arrival's successor waits for. */
  private tails = new Map<string, Promise<void>>();

  /** Called when an import's request arrives, before its body is read. */
  arrive(siteId: string): Turn {
    const before = this.tails.get(siteId) ?? Promise.resolve();
    let pass!: () => void;
    const passed = new Promise<void>((resolve) => { pass = resolve; });
    // Passing early (an import that failed before its turn) must not let a later one overtake an earlier one.
    const mine = Promise.all([before, passed]).then(() => {});
    this.tails.set(siteId, mine);
    // The map forgets a site once its latest arrival has passed, so it holds only sites with imports under way.
    mine.then(() => { if (this.tails.get(siteId) === mine) this.tails.delete(siteId); });
    return { ready: before, pass };
  }
}
