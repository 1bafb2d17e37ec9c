// Visitor profiles: the paginated list (with lifetime goal completions counted against current goals)
// and one visitor's events, newest first. Profiles come from the planner's siteProfiles() (DuckDB's visitors
// table, with the rest of the metadata), events from its siteRows() on the analytics engine; a visitor's goal completions are the conversions metric (sql/metrics.ts) over the completions
// relation (plan/completions-source.ts), as the goals report counts them.
// Not query-API presets: a profile is a stored row per visitor and a timeline a list of one visitor's events
// over all time, not figures of a site, range and filters; /query has no visitor dimension by design.
import type { Database } from '../../storage/database.ts';
import type { Engine } from '../sql/dialect.ts';
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
function completionsPerVisitor(events: Fragment, goals: MatchDef[], engine: Engine): Fragment {
  const named = goals.map((g, i) => ({ ...g, name: String(i) }));
  return sql`SELECT visitor_id, ${frag(metricSql('conversions', 'completions'))} AS n FROM ${completionsOf(events, named, engine.dialect)} GROUP BY visitor_id`;
}

/**
 * Lifetime goal completions of `visitorIds`, counted on the engine (only their events are read). Profiles are
 * DuckDB's, events the engine's: the page of profiles is read first, then their events.
 */
async function goalsDone(engine: Engine, files: ParquetManifest, siteId: string, goals: MatchDef[], visitorIds: unknown[]): Promise<Map<number, number>> {
  if (!visitorIds.length || !goals.length) return new Map();
  // Integer IDs read from the visitors table (never request text), written as integers.
  const ids = frag(visitorIds.map((v) => String(Math.trunc(Number(v)))).join(', '));
  const theirs = sql`(SELECT * FROM ${siteRows(files, 'events', siteId, undefined, engine.dialect)} WHERE visitor_id IN (${ids}))`;
  const found = await rows(engine, completionsPerVisitor(theirs, goals, engine));
  return new Map(found.map((r) => [Number(r.visitor_id), Number(r.n ?? 0)]));
}

/**
 * Most recently seen first (profiles known only from /identify last). `search` matches a part of
 * email, name, uid or external_id, case-insensitively. The page query also counts goal completions of
 * just those visitors (the goal test runs on their events only, after the visitor_id semi-join).
 */
export async function listVisitors(db: Database, engine: Engine, files: ParquetManifest, siteId: string, goals: MatchDef[], paging: Paging, search?: string) {
  const term = search?.toLowerCase() ?? null;
  const where = sql`(${term}::VARCHAR IS NULL
    OR contains(lower(email), ${term}) OR contains(lower(name), ${term})
    OR contains(lower(uid), ${term}) OR contains(lower(external_id), ${term}))`;
  const q = sql`SELECT ${PROFILE} FROM ${siteProfiles(siteId)} WHERE ${where}
    ORDER BY last_seen_at DESC NULLS LAST, first_seen_at DESC NULLS LAST, id ${limitOffset(paging)}`;
  // A separate count: count(*) OVER () would materialise every matching profile before the top-N.
  const n = sql`SELECT count(*) AS n FROM ${siteProfiles(siteId)} WHERE ${where}`;
  const [page, count] = await Promise.all([rows(db, q), one(db, n)]);
  const done = await goalsDone(engine, files, siteId, goals, page.map((p) => p.visitor_id));
  return { rows: page.map((p) => ({ ...p, total_goals: done.get(Number(p.visitor_id)) ?? 0 })), total: count!.n as number };
}

/** One profile by its UUID, with its lifetime goal completions; undefined when not in the site. */
export async function visitorProfile(db: Database, engine: Engine, files: ParquetManifest, siteId: string, id: string, goals: MatchDef[]) {
  const found = await one(db, sql`SELECT ${PROFILE} FROM ${siteProfiles(siteId)} WHERE id = TRY_CAST(${id} AS UUID)`);
  if (!found) return undefined;
  const done = await goalsDone(engine, files, siteId, goals, [found.visitor_id]);
  return { ...found, total_goals: done.get(Number(found.visitor_id)) ?? 0 } as Record<string, any>;
}

/**
 * A visitor's events newest first, with the total for pagination. The total is a query of its own:
 * `count(*) OVER ()` over the union of the hot table and many small Parquet files made DuckDB's window
 * operator fail with an internal error (`Attempted to access index 0 within vector of size 0`, in
 * WindowLocalSourceState::Finalize, with several threads), which also invalidates the whole database.
 * Both run at once, as the visitor list's page and count do.
 */
export async function visitorEvents(engine: Engine, files: ParquetManifest, siteId: string, visitorId: number, paging: Paging) {
  const d = engine.dialect;
  const events = siteRows(files, 'events', siteId, undefined, d);
  const q = sql`SELECT ${d.isoTime(frag('ts'))} AS timestamp, event_type, event_name, url, path, title, referrer, session_id,
      ${d.jsonText(frag('props'))} AS properties, revenue::DOUBLE AS revenue, currency, country, browser, os, device
    FROM ${events} e WHERE visitor_id = ${visitorId}
    ORDER BY ts DESC ${limitOffset(paging)}`;
  const n = sql`SELECT count(*) AS n FROM ${events} e WHERE visitor_id = ${visitorId}`;
  const [found, count] = await Promise.all([rows(engine, q), one(engine, n)]);
  return { rows: found, total: Number(count!.n) };
}
