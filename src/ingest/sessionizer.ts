// Server-side visits: a visitor's events belong to one visit until a gap of 30 minutes or more.
// State is one small entry per recently active visitor, rebuilt from the visits table at start.
import type { Database } from '../storage/database.ts';
import { visitIdOf } from './hash.ts';

export const VISIT_GAP_MS = 30 * 60 * 1000;

type Open = { visitId: number; lastMs: number };

export class Sessionizer {
  private open = new Map<number, Open>();
  private timer: ReturnType<typeof setInterval> | undefined;

  /** After the log replay, so visits still open when the server stopped continue. */
  async restore(db: Database) {
    const rows = await db.query<{ visitor_id: number; visit_id: number; end_ms: number }>(
      `SELECT visitor_id, arg_max(visit_id, end_ts) AS visit_id, epoch_ms(max(end_ts)) AS end_ms
       FROM visits WHERE end_ts > now()::TIMESTAMP - INTERVAL 30 MINUTE GROUP BY visitor_id`,
    );
    for (const r of rows) this.open.set(r.visitor_id, { visitId: r.visit_id, lastMs: r.end_ms });
    this.timer = setInterval(() => this.prune(Date.now()), 60_000);
  }

  stop() { if (this.timer) clearInterval(this.timer); }

  /** True when the visitor has a visit that an event at `ms` would continue. */
  isOpen(visitorId: number, ms: number): boolean {
    const o = this.open.get(visitorId);
    return !!o && ms - o.lastMs < VISIT_GAP_MS;
  }

  /** The visit an event of this visitor at `ms` belongs to, opening a new one after the gap. */
  visit(visitorId: number, ms: number): number {
    const o = this.open.get(visitorId);
    if (o && ms - o.lastMs < VISIT_GAP_MS) {
      if (ms > o.lastMs) o.lastMs = ms;
      return o.visitId;
    }
    const visitId = visitIdOf(visitorId, ms);
    this.open.set(visitorId, { visitId, lastMs: ms });
    return visitId;
  }

  private prune(now: number) {
    for (const [k, o] of this.open) if (now - o.lastMs >= VISIT_GAP_MS) this.open.delete(k);
  }

  size() { return this.open.size; }
}
