// Server-side visits: a visitor's events belong to one visit until a gap of 30 minutes or more.
// State is one small entry per recently active visitor, rebuilt from the visits table at start.
import type { Database } from '../storage/database.ts';
import { visitIdOf } from './hash.ts';

const VISIT_GAP_MS = 30 * 60 * 1000;

/** `path`/`hostname`: the visit's latest pageview, which the next pageview's engagement report is about. */
type Open = { visitId: number; lastMs: number; path: string | null; hostname: string | null };

/** The page a pageview leaves (null on a visit's first pageview), as stored on the event. */
export type Engaged = { engaged_path: string | null; engaged_hostname: string | null };

export class Sessionizer {
  private open = new Map<number, Open>();
  private timer: ReturnType<typeof setInterval> | undefined;

  /**
   * After the log replay, so visits still open when the server stopped continue. The visit's exit page is
   * its latest pageview; visits keep only their first hostname, which stands in for the latest one.
   */
  async restore(db: Database) {
    const rows = await db.query<{ visitor_id: number; visit_id: number; end_ms: number; path: string | null; hostname: string | null }>(
      `SELECT visitor_id, arg_max(visit_id, end_ts) AS visit_id, epoch_ms(max(end_ts)) AS end_ms,
         arg_max_null(exit_page, end_ts) AS path, arg_max_null(CASE WHEN exit_page IS NOT NULL THEN hostname END, end_ts) AS hostname
       FROM visits WHERE end_ts > now()::TIMESTAMP - INTERVAL 30 MINUTE GROUP BY visitor_id`,
    );
    for (const r of rows) this.open.set(r.visitor_id, { visitId: r.visit_id, lastMs: r.end_ms, path: r.path, hostname: r.hostname });
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
    this.open.set(visitorId, { visitId, lastMs: ms, path: null, hostname: null });
    return visitId;
  }

  /**
   * A pageview of the visit visit() just returned: sets the row's engaged page to the page it leaves (null on
   * the visit's first pageview), and the row's page becomes the visit's latest. Written into the row, not
   * returned: an object per pageview and an Object.assign were ~1 µs of the event route's thread.
   */
  leave(visitorId: number, row: { path: string | null; hostname: string | null } & Engaged) {
    const o = this.open.get(visitorId);
    if (!o) return;
    row.engaged_path = o.path;
    row.engaged_hostname = o.hostname;
    o.path = row.path;
    o.hostname = row.hostname;
  }

  private prune(now: number) {
    for (const [k, o] of this.open) if (now - o.lastMs >= VISIT_GAP_MS) this.open.delete(k);
  }
}
