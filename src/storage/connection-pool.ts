// A fixed set of DuckDB connections handed out one request at a time, and retired whole when their
// database instance has to be reopened.
import type { DuckDBConnection } from '@duckdb/node-api';
import { dropStatements } from './statement-cache.ts';

/** Thrown to a caller still waiting for a connection of a retired pool: it runs again on the new one. */
export const RETIRED_MESSAGE = 'FATAL Error: database has been invalidated; it is being reopened';

export class Pool {
  private idle: DuckDBConnection[];
  private waiters: { resolve: (c: DuckDBConnection) => void; reject: (e: Error) => void }[] = [];
  private busy = 0;
  private retired = false;
  private onDrained: (() => void) | undefined;

  constructor(readonly all: DuckDBConnection[]) {
    this.idle = [...all];
  }

  async acquire(): Promise<DuckDBConnection> {
    if (this.retired) throw new Error(RETIRED_MESSAGE);
    const c = this.idle.pop();
    if (c) {
      this.busy++;
      return c;
    }
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** An idle connection now, or undefined (never waits; undefined once retired too). */
  tryAcquire(): DuckDBConnection | undefined {
    if (this.retired) return undefined;
    const c = this.idle.pop();
    if (c) this.busy++;
    return c;
  }

  release(c: DuckDBConnection) {
    const w = this.retired ? undefined : this.waiters.shift();
    if (w) return w.resolve(c);
    this.busy--;
    this.idle.push(c);
    if (this.retired && this.busy === 0) this.onDrained?.();
  }

  /**
   * No new work; waiters are turned away. Resolves once every connection is back (statements on an
   * invalidated instance fail at once) or after `maxWaitMs`, whichever comes first.
   */
  retire(maxWaitMs: number): Promise<void> {
    this.retired = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error(RETIRED_MESSAGE));
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      this.onDrained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  close() {
    for (const c of this.all) {
      try {
        dropStatements(c);
        c.closeSync();
      } catch {
        // Closing a connection of an invalidated instance may fail; the instance goes next anyway.
      }
    }
  }
}
