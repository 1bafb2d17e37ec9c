// Visitor profiles: the paginated list (with lifetime goal completions counted against current goals)
// and one visitor's events, newest first. Profiles come from the visitors table; events through the planner's siteRows().
import type { Database } from '../../storage/database.ts';
import { siteRows } from '../plan/planner.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import { goalCountExpr, type MatchDef } from '../sql/goals-match.ts';
import { limitOffset, type Paging } from '../sql/paging.ts';
import { one, rows } from '../run.ts';
import { frag, sql } from '../../storage/sql.ts';

const PROFILE = frag(`id::VARCHAR AS id, visitor_id, uid, email, name, avatar_url, external_id, custom::VARCHAR AS custom,
  first_seen_at, last_seen_at, total_sessions, total_pageviews, total_revenue::DOUBLE AS total_revenue,
  last_country, last_browser, last_os, last_device, last_referrer_source`);

/**
 * Most recently seen first (profiles known only from /identify last). `search` matches a part of
 * email, name, uid or external_id, case-insensitively. The page query also counts goal completions of
 * just those visitors (the goal test runs on their events only, after the visitor_id semi-join).
 */
export async function listVisitors(db: Database, files: ParquetManifest, siteId: string, goals: MatchDef[], paging: Paging, search?: string) {
  const term = search?.toLowerCase() ?? null;
  const events = siteRows(files, 'events', siteId);
  const where = sql`site_id = ${siteId} AND (${term}::VARCHAR IS NULL
    OR contains(lower(email), ${term}) OR contains(lower(name), ${term})
    OR contains(lower(uid), ${term}) OR contains(lower(external_id), ${term}))`;
  const q = sql`WITH page AS (
      SELECT ${PROFILE} FROM visitors WHERE ${where}
      ORDER BY last_seen_at DESC NULLS LAST, first_seen_at DESC NULLS LAST, id
      ${limitOffset(paging)}
    ), done AS (
      SELECT visitor_id, sum(${goalCountExpr(goals)}) AS n
      FROM ${events} e WHERE visitor_id IN (SELECT visitor_id FROM page) GROUP BY visitor_id
    )
    SELECT page.*, coalesce(done.n, 0)::BIGINT AS total_goals FROM page LEFT JOIN done USING (visitor_id)
    ORDER BY last_seen_at DESC NULLS LAST, first_seen_at DESC NULLS LAST, id`;
  // A separate count: count(*) OVER () would materialise every matching profile before the top-N.
  const n = sql`SELECT count(*) AS n FROM visitors WHERE ${where}`;
  const [found, count] = await Promise.all([rows(db, q), one(db, n)]);
  return { rows: found, total: count!.n as number };
}

/** One profile by its UUID, with its lifetime goal completions; undefined when not in the site. */
export async function visitorProfile(db: Database, files: ParquetManifest, siteId: string, id: string, goals: MatchDef[]) {
  const events = siteRows(files, 'events', siteId);
  const q = sql`WITH v AS (SELECT ${PROFILE} FROM visitors WHERE site_id = ${siteId} AND id = TRY_CAST(${id} AS UUID))
    SELECT v.*, (SELECT coalesce(sum(${goalCountExpr(goals)}), 0)::BIGINT FROM ${events} e WHERE e.visitor_id = v.visitor_id) AS total_goals FROM v`;
  return one(db, q);
}

/**
 * A visitor's events newest first, with the total for pagination. The total is a query of its own:
 * `count(*) OVER ()` over the union of the hot table and many small Parquet files made DuckDB's window
 * operator fail with an internal error (`Attempted to access index 0 within vector of size 0`, in
 * WindowLocalSourceState::Finalize, with several threads), which also invalidates the whole database.
 * Both run at once, as the visitor list's page and count do.
 */
export async function visitorEvents(db: Database, files: ParquetManifest, siteId: string, visitorId: number, paging: Paging) {
  const events = siteRows(files, 'events', siteId);
  const q = sql`SELECT ts AS timestamp, event_type, event_name, url, path, title, referrer, session_id,
      to_json(props)::VARCHAR AS properties, revenue::DOUBLE AS revenue, currency, country, browser, os, device
    FROM ${events} e WHERE visitor_id = ${visitorId}
    ORDER BY ts DESC ${limitOffset(paging)}`;
  const n = sql`SELECT count(*) AS n FROM ${events} e WHERE visitor_id = ${visitorId}`;
  const [found, count] = await Promise.all([rows(db, q), one(db, n)]);
  return { rows: found, total: count!.n as number };
}
