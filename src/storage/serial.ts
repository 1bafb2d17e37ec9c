// One-at-a-time runner for the writers of the analytics tables (loader, identify, compaction):
// DuckDB would abort one of two transactions updating the same rows; queueing them avoids that.
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => {});
    return next;
  }
}
