// Makes "pin a DuckDB snapshot and copy the Parquet file list" atomic with respect to "commit and publish the
// list": a query's file list and the hot rows its transaction sees then always belong to the same state.
// Pins (one round trip each) run side by side; a publication waits for those under way, holds new ones back
// for its COMMIT and the manifest change, and never waits for a query to finish.

export class PublishGate {
  /** Publications started so far: a query may pin a second connection only while this is unchanged. */
  epoch = 0;
  private pinning = 0;
  private drained: (() => void) | undefined;
  /** The publication waiting for pins to finish or committing; it never rejects. */
  private current: Promise<void> | undefined;

  /**
   * Enters a pin now, or returns undefined while a publication is under way (the caller waits on `idle()`).
   * The returned function leaves it, once the pinning statement has answered.
   */
  tryEnter(): (() => void) | undefined {
    if (this.current) return undefined;
    this.pinning++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--this.pinning === 0) this.drained?.();
    };
  }

  /** Enters a pin, after the publication under way (if any). */
  async enter(): Promise<() => void> {
    for (;;) {
      const leave = this.tryEnter();
      if (leave) return leave;
      await this.current;
    }
  }

  /**
   * Runs `commit` (COMMIT, then the manifest change, with no await between them and the publication's end)
   * once no pin is under way; pins wait meanwhile. One publication at a time.
   */
  async publish<T>(commit: () => Promise<T>): Promise<T> {
    while (this.current) await this.current;
    let done!: () => void;
    this.current = new Promise<void>((r) => { done = r; });
    this.epoch++;
    try {
      if (this.pinning) await new Promise<void>((r) => { this.drained = r; });
      return await commit();
    } finally {
      this.drained = undefined;
      this.current = undefined;
      done();
    }
  }
}
