// Visitor profiles: the paginated list (with lifetime goal completions counted against current goals)
// and one visitor's events, newest first. Profiles come from the planner's siteProfiles(), events from its
// siteRows(); a visitor's goal completions are the conversions metric (sql/metrics.ts) over the completions
// relation (plan/completions-source.ts), as the goals report counts them.
// Not query-API presets: a profile is a stored row per visitor and a timeline a list of one visitor's events
// over all time, not figures of a site, range and filters; /query has no visitor dimension by design.
import type { Database } from '../../storage/database.ts';
import { siteProfiles, siteRows } from '../plan/planner.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import type { MatchDef } from '../sql/goals-match.ts';
import { completionsOf } from '../plan/completions-source.ts';
import { metricSql } from '../sql/metrics.ts';
import { limitOffset, type Paging } from '../sql/paging.ts';
import { one, rows } from '../run.ts';
import { frag, sql, type Fragment } from '../../storage/sql.ts';

const PROFILE = frag(`id::VARCHAR AS id, visitor_id, uid, email, name, avatar_url, external_id, custom::VARCHAR AS custom,
  first_seen_at, last_seen_at, total_sessions, total_pageviews, total_revenue::DOUBLE AS total_revenue,
  last_country, last_browser, last_os, last_device, last_referrer_source`);

/** `(visitor_id, n)`: goal completions per visitor among `events` (a goal is named by its position). */
function completionsPerVisitor(events: Fragment, goals: MatchDef[]): Fragment {
  const named = goals.map((g, i) => ({ ...g, name: String(i) }));
  return sql`SELECT visitor_id, ${frag(metricSql('conversions', 'completions'))} AS n FROM ${completionsOf(events, named)} GROUP BY visitor_id`;
}

/**
 * Most recently seen first (profiles known only from /identify last). `search` matches a part of
 * email, name, uid or external_id, case-insensitively. The page query also counts goal completions of
 * just those visitors (the goal test runs on their events only, after the visitor_id semi-join).
 */
export async function listVisitors(db: Database, files: ParquetManifest, siteId: string, goals: MatchDef[], paging: Paging, search?: string) {
  const term = search?.toLowerCase() ?? null;
  const events = siteRows(files, 'events', siteId);
  const where = sql`(${term}::VARCHAR IS NULL
    OR contains(lower(email), ${term}) OR contains(lower(name), ${term})
    OR contains(lower(uid), ${term}) OR contains(lower(external_id), ${term}))`;
  const q = sql`WITH page AS (
      SELECT ${PROFILE} FROM ${siteProfiles(siteId)} WHERE ${where}
      ORDER BY last_seen_at DESC NULLS LAST, first_seen_at DESC NULLS LAST, id
      ${limitOffset(paging)}
    ), done AS (${completionsPerVisitor(sql`(SELECT * FROM ${events} WHERE visitor_id IN (SELECT visitor_id FROM page))`, goals)})
    SELECT page.*, coalesce(done.n, 0)::BIGINT AS total_goals FROM page LEFT JOIN done USING (visitor_id)
    ORDER BY last_seen_at DESC NULLS LAST, first_seen_at DESC NULLS LAST, id`;
  // A separate count: count(*) OVER () would materialise every matching profile before the top-N.
  const n = sql`SELECT count(*) AS n FROM ${siteProfiles(siteId)} WHERE ${where}`;
  const [found, count] = await Promise.all([rows(db, q), one(db, n)]);
  return { rows: found, total: count!.n as number };
}

/** One profile by its UUID, with its lifetime goal completions; undefined when not in the site. */
export async function visitorProfile(db: Database, files: ParquetManifest, siteId: string, id: string, goals: MatchDef[]) {
  const profile = sql`SELECT ${PROFILE} FROM ${siteProfiles(siteId)} WHERE id = TRY_CAST(${id} AS UUID)`;
  const theirs = sql`(SELECT * FROM ${siteRows(files, 'events', siteId)} WHERE visitor_id IN (SELECT visitor_id FROM ${siteProfiles(siteId)} WHERE id = TRY_CAST(${id} AS UUID)))`;
  const [found, done] = await Promise.all([one(db, profile), one(db, completionsPerVisitor(theirs, goals))]);
  return found ? { ...found, total_goals: Number(done?.n ?? 0) } as Record<string, any> : undefined;
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
