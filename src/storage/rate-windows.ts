// Request counters shared by every node (PostgreSQL's rate_windows): one upsert per counted request, in
// PostgreSQL's clock, so a fixed window means the same thing on every node.
import type { MetaDb } from './meta-db.ts';

export type WindowCount = { start: number; count: number; now: number };

/**
 * Counts one request of `who` and returns its window: a new one (count 1) when the stored one has ended.
 * One statement, so two nodes counting at once each see the other's request (the row lock orders them).
 */
export async function countRequest(db: MetaDb, who: string, windowMs: number): Promise<WindowCount> {
  const [row] = await db.query<WindowCount>(
    `WITH t AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT AS now)
     INSERT INTO rate_windows AS w (who, window_start, count) SELECT ?, t.now, 1 FROM t
     ON CONFLICT (who) DO UPDATE SET
       window_start = CASE WHEN w.window_start + ? <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE w.window_start END,
       count = CASE WHEN w.window_start + ? <= EXCLUDED.window_start THEN 1 ELSE w.count + 1 END
     RETURNING w.window_start AS start, w.count AS count, (SELECT now FROM t) AS now`,
    [who, windowMs, windowMs],
  );
  return row!;
}

/** Windows that ended long ago are dead weight: any node may drop them now and then. */
export async function sweepRequestCounts(db: MetaDb, windowMs: number): Promise<void> {
  await db.exec(`DELETE FROM rate_windows WHERE window_start < (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT - ?`, [2 * windowMs]);
}
