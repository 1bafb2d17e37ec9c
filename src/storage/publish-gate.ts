// Orders queries' reads against publications (a COMMIT that changes the hot tables with the Parquet file list,
// then the in-memory list's change), so a query's file list and the hot rows it sees belong to one state.
// An unpinned read takes a mark and checks after it that no publication started meanwhile. A pin (BEGIN and a
// first touch, one round trip, then the list copied) is atomic with respect to a publication: pins run side by
// side; a publication waits for those under way, holds new ones back for its COMMIT and the manifest change,
// and never waits for a query to finish.

export class PublishGate {
  /** Publications started so far: a read's statements agree with its file list while this is unchanged. */
  epoch = 0;
  private pinning = 0;
  private drained: (() => void) | undefined;
  /** The publication waiting for pins to finish or committing; it never rejects. */
  private current: Promise<void> | undefined;

  /** A mark for an unpinned read, or undefined while a publication is under way (the list may be about to change). */
  readMark(): number | undefined {
    return this.current ? undefined : this.epoch;
  }

  /** Resolves once the publication under way (if any) has committed and published. */
  async settled(): Promise<void> {
    while (this.current) await this.current;
  }

  /** True when no publication started since `mark`: every statement run in between saw the state the list was copied from. */
  unchanged(mark: number): boolean {
    return this.epoch === mark;
  }

  /**
   * Enters a pin now, or returns undefined while a publication is under way (the caller waits on `settled()`).
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
