// One answer's consistent view of the stored rows: the Parquet file list it plans from and the hot tables its
// statements read belong to one state (consistentRead). Most answers run unpinned and are checked after; the
// others run in a Snapshot: a DuckDB transaction pinned on a pooled connection with the list copied at the same
// moment, through the publish gate (storage/publish-gate.ts). Statements issued side by side take more
// connections pinned the same way while no publication has happened since.
import { Tx, type Database, type Lease, type Param, type Row } from './database.ts';
import type { ParquetManifest } from './parquet-layout.ts';
import { log } from '../log.ts';

/**
 * BEGIN alone does not start DuckDB's transaction: its snapshot is taken when the transaction first touches the
 * database. One round trip for both; the caller plans meanwhile.
 */
const PIN = 'BEGIN TRANSACTION; SELECT 1 FROM visits LIMIT 0';

type Pinned = { lease: Lease; ready: Promise<void>; busy: boolean; error?: unknown };

export class Snapshot {
  private pinned: Pinned[] = [];
  private waiters: ((p: Pinned) => void)[] = [];
  private closed = false;

  private constructor(private db: Database, readonly files: ParquetManifest, private view: { release(): void }, private epoch: number) {}

  /** Pins a snapshot: waits for a connection, and for a publication's commit under way. */
  static async open(db: Database, manifest: ParquetManifest): Promise<Snapshot> {
    const lease = await db.lease();
    let leave = db.gate.tryEnter();
    while (!leave) {
      await db.gate.settled();
      leave = db.gate.tryEnter();
    }
    // In the same synchronous step as the entry: a publication starting right after must change the epoch seen here.
    const view = manifest.view();
    const s = new Snapshot(db, view.files, view, db.gate.epoch);
    s.pinned.push(pin(lease, leave));
    return s;
  }

  async query<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    if (this.closed) throw new Error('query on a closed snapshot');
    const p = this.take() ?? (await new Promise<Pinned>((r) => this.waiters.push(r)));
    try {
      await p.ready;
      if (p.error) throw p.error;
      return await new Tx(p.lease.c).query<T>(sql, params);
    } catch (e) {
      // DuckDB aborts the transaction on an error: later statements on it would fail on that, not on their own.
      if (p.error === undefined) {
        p.error = e;
        p.lease.failed(e);
      }
      throw e;
    } finally {
      this.give(p);
    }
  }

  async one<T extends Row = Row>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await this.query<T>(sql, params))[0];
  }

  /** Ends the transactions once their statements are done (not awaited: the answer need not wait for it). */
  close() {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pinned.filter((x) => !x.busy)) this.end(p);
  }

  /** An idle pinned connection, or a new one pinned to the same state; undefined when neither can be had now. */
  private take(): Pinned | undefined {
    const idle = this.pinned.find((p) => !p.busy) ?? this.extra();
    if (idle) idle.busy = true;
    return idle;
  }

  /**
   * Another connection, only when one is idle in the pool and no publication has started since this snapshot
   * was pinned: its transaction then sees the same hot rows beside the same files.
   */
  private extra(): Pinned | undefined {
    if (this.db.gate.epoch !== this.epoch) return undefined;
    const leave = this.db.gate.tryEnter();
    if (!leave) return undefined;
    const lease = this.db.tryLease();
    if (!lease) {
      leave();
      return undefined;
    }
    const p = pin(lease, leave);
    this.pinned.push(p);
    return p;
  }

  private give(p: Pinned) {
    const next = this.waiters.shift();
    if (next) return next(p);
    p.busy = false;
    // The first connection keeps the snapshot until the answer is done; the others go back to the pool when idle.
    if (this.closed || p !== this.pinned[0]) this.end(p);
  }

  private end(p: Pinned) {
    this.pinned = this.pinned.filter((x) => x !== p);
    const last = this.closed && !this.pinned.length;
    void p.ready
      .then(() => p.lease.c.run('ROLLBACK'))
      .catch(() => {})
      .finally(() => {
        p.lease.release();
        // Files retired meanwhile leave the disk once no snapshot may still read them.
        if (last) this.view.release();
      });
  }
}

/** Sends the pin; the gate is left when it has answered. */
function pin(lease: Lease, leave: () => void): Pinned {
  const p: Pinned = { lease, busy: false, ready: Promise.resolve() };
  p.ready = lease.c.run(PIN).then(
    () => {},
    (e) => {
      p.error = e;
      lease.failed(e);
    },
  ).finally(leave);
  return p;
}

/** What a consistent read runs its statements on: the database itself, or a pinned snapshot. */
export type Reader = { query<T extends Row = Row>(sql: string, params?: Param[]): Promise<T[]> };

/**
 * `fn` plans from `files` and reads stored rows through `reader`, both of one state. First unpinned, on the pool
 * as any statement (nothing added to the answer's time), after the publication under way if any, and kept when
 * no publication started while it ran; otherwise (rare for a short answer) answered again in a pinned snapshot,
 * which no publication can disturb.
 */
export async function consistentRead<T>(db: Database, manifest: ParquetManifest, fn: (files: ParquetManifest, reader: Reader) => Promise<T>): Promise<T> {
  // A publication under way commits in moments: its end is worth waiting for (a pin would wait for it too).
  if (db.gate.readMark() === undefined) await db.gate.settled();
  const mark = db.gate.readMark();
  if (mark !== undefined) {
    const view = manifest.view();
    try {
      const out = await fn(view.files, db);
      if (db.gate.unchanged(mark)) return out;
    } catch (e) {
      // An error of a read that crossed a publication may come of the crossing (answered again below).
      if (db.gate.unchanged(mark)) throw e;
    } finally {
      view.release();
    }
    log.debug('answered again in a pinned snapshot: a publication crossed the unpinned read');
  }
  const s = await Snapshot.open(db, manifest);
  try {
    return await fn(s.files, s);
  } finally {
    s.close();
  }
}
