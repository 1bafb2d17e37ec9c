// The one bulk-load path: staged event lines → events (Parquet files, one per site and month), visits
// (merged per visit), visitor totals and the event registries, all in the caller's transaction. Live log
// segments and imports both come through here.
import type { Database, Tx } from '../storage/database.ts';
import type { ParquetFile, ParquetManifest } from '../storage/parquet-layout.ts';
import { writePartitions, writingFiles } from '../storage/parquet-writer.ts';
import type { Serial } from '../storage/serial.ts';
import { markBatch, STORED_EVENT_COLUMNS } from '../storage/marks.ts';
import { EVENT_REGISTRIES } from '../storage/registries.ts';
import { sql, type Fragment } from '../storage/sql.ts';
import { firstOrder, VALUE_MARKS } from '../storage/value-marks.ts';

/**
 * Visit attributes are those of its first event, nulls included: per visit, the row id of the event first in
 * firstOrder (value-marks.ts: its value columns are their firstValue), whose attributes are then joined by row id
 * (a third less time than an arg_min_null per attribute).
 */
const FIRST_EVENT_ATTRS = [
  'hostname', 'referrer', 'source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content',
  'country', 'region', 'city', 'browser', 'browser_version', 'os', 'os_version', 'device', 'screen',
];

let seq = 0;

/**
 * A FROM-able relation with its parameters; `inArrivalOrder` when its rows come in time order (the live log).
 * `table`: the relation is a temp table of the caller's, used as the load's staging table as it is (an import's,
 * already sessionized) instead of being copied. `hot`: the events go to the hot events table, which compaction
 * writes to Parquet in large batches (storage/hot-events.ts), instead of a Parquet file per site and month now.
 */
export type LoadSource = Fragment & { inArrivalOrder?: boolean; table?: boolean; hot?: boolean };

/**
 * Loads the rows of `source` into the analytics tables.
 * Rows of sites deleted meanwhile are dropped. Returns the number of events stored; the event files it
 * writes are appended to `written`.
 * Events go straight to Parquet: inserting them into a DuckDB table cost more (its WAL, its checkpoint,
 * then compaction reading and deleting them again) than the whole rest of the load.
 */
async function loadRows(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], { sql: source, params, inArrivalOrder, table, hot }: LoadSource): Promise<number> {
  const n = ++seq;
  const stage = table ? source : `ingest_stage_${n}`;
  const vagg = `ingest_vagg_${n}`;
  const marked = `ingest_marked_${n}`;
  const drops: string[] = [];
  try {
    if (table) await tx.exec(`DELETE FROM ${stage} WHERE site_id NOT IN (SELECT id::VARCHAR FROM sites)`);
    else await tx.exec(`CREATE TEMP TABLE ${stage} AS SELECT * FROM ${source} WHERE site_id IN (SELECT id::VARCHAR FROM sites)`, params);
    const [{ rows }] = await tx.query<{ rows: number }>(`SELECT count(*) AS rows FROM ${stage}`);
    if (!rows) return 0;
    const marks = await markBatch(tx, stage, marked, n);
    drops.push(...marks.drops);
    if (hot) await tx.exec(`INSERT INTO events BY NAME SELECT ${STORED_EVENT_COLUMNS} FROM ${marked}`);
    else await writePartitions(tx, manifest, written, 'events', marked, { columns: STORED_EVENT_COLUMNS, inArrivalOrder });
    for (const upsert of Object.values(EVENT_REGISTRIES)) await tx.exec(upsert(stage));

    // Which visits are stored already: the stored ones are probed with the batch's few visits as the hash side
    // (NOT EXISTS hashed the whole hot visits table, up to a few hundred thousand rows between compactions).
    await tx.exec(`
      CREATE TEMP TABLE ${vagg} AS
      WITH a AS MATERIALIZED (
        SELECT g.* EXCLUDE (first_rid), ${FIRST_EVENT_ATTRS.map((c) => `f.${c}`).join(', ')}, m.visit_prev, m.visit_changed AS attrs_changed, ${VALUE_MARKS.map((c) => `m.${c}`).join(', ')}
        FROM (SELECT site_id, visit_id, any_value(visitor_id) AS visitor_id, min(ts) AS start_ts, max(ts) AS end_ts,
          arg_min(path, ts) FILTER (WHERE event_type = 'pageview') AS entry_page,
          arg_max(path, ts) FILTER (WHERE event_type = 'pageview') AS exit_page,
          arg_min(rowid, ${firstOrder()}) AS first_rid,
          count(*) FILTER (WHERE event_type = 'pageview')::INTEGER AS pageviews,
          count(*)::INTEGER AS events,
          sum(revenue) AS revenue
        FROM ${stage} GROUP BY site_id, visit_id) g
        JOIN ${stage} f ON f.rowid = g.first_rid
        JOIN ${marks.visits} m ON m.site_id = g.site_id AND m.visit_id = g.visit_id),
      stored AS (SELECT v.site_id, v.visit_id FROM visits v SEMI JOIN a ON v.site_id = a.site_id AND v.visit_id = a.visit_id)
      SELECT a.*, s.visit_id IS NULL AS is_new FROM a LEFT JOIN stored s ON s.site_id = a.site_id AND s.visit_id = a.visit_id`);

    // Visits that continue across batches: counters add up, the exit moves on, attributes stay unless the
    // batch holds earlier events (an import of the stretch before a stored visit): a visit's are its first event's.
    await tx.exec(`
      UPDATE visits SET
        start_ts = least(visits.start_ts, a.start_ts),
        end_ts = greatest(visits.end_ts, a.end_ts),
        entry_page = CASE WHEN a.start_ts < visits.start_ts AND a.entry_page IS NOT NULL THEN a.entry_page ELSE coalesce(visits.entry_page, a.entry_page) END,
        exit_page = CASE WHEN a.end_ts >= visits.end_ts AND a.exit_page IS NOT NULL THEN a.exit_page ELSE coalesce(visits.exit_page, a.exit_page) END,
        ${FIRST_EVENT_ATTRS.map((c) => `${c} = CASE WHEN a.start_ts < visits.start_ts THEN a.${c} ELSE visits.${c} END`).join(',\n        ')},
        pageviews = visits.pageviews + a.pageviews,
        events = visits.events + a.events,
        duration = date_diff('second', least(visits.start_ts, a.start_ts), greatest(visits.end_ts, a.end_ts))::INTEGER,
        is_bounce = (visits.pageviews + a.pageviews = 1 AND visits.events + a.events = 1),
        revenue = CASE WHEN visits.revenue IS NULL AND a.revenue IS NULL THEN NULL ELSE coalesce(visits.revenue, 0) + coalesce(a.revenue, 0) END
      FROM ${vagg} a
      WHERE NOT a.is_new AND visits.site_id = a.site_id AND visits.visit_id = a.visit_id`);

    await tx.exec(`
      INSERT INTO visits (site_id, visit_id, visitor_id, start_ts, end_ts, entry_page, exit_page, ${FIRST_EVENT_ATTRS.join(', ')},
        pageviews, events, duration, is_bounce, revenue, visit_prev, attrs_changed, ${VALUE_MARKS.join(', ')})
      SELECT site_id, visit_id, visitor_id, start_ts, end_ts, entry_page, exit_page, ${FIRST_EVENT_ATTRS.join(', ')},
        pageviews, events, date_diff('second', start_ts, end_ts)::INTEGER, pageviews = 1 AND events = 1, revenue, visit_prev, attrs_changed, ${VALUE_MARKS.join(', ')}
      FROM ${vagg} WHERE is_new`);

    // Visitor profiles: totals add up per batch; last_* follow the newest activity.
    const newer = `(visitors.last_seen_at IS NULL OR EXCLUDED.last_seen_at >= visitors.last_seen_at)`;
    await tx.exec(`
      INSERT INTO visitors (id, site_id, visitor_id, uid, first_seen_at, last_seen_at, total_sessions, total_pageviews,
        total_revenue, last_country, last_browser, last_os, last_device, last_referrer_source)
      SELECT md5(e.site_id || ':' || e.visitor_id)::UUID, e.site_id, e.visitor_id, e.uid, e.first_seen, e.last_seen,
        coalesce(s.sessions, 0), e.pageviews, e.revenue, e.country, e.browser, e.os, e.device, s.source
      FROM (
        SELECT site_id, visitor_id, max(uid) AS uid, min(ts) AS first_seen, max(ts) AS last_seen,
          count(*) FILTER (WHERE event_type = 'pageview') AS pageviews, coalesce(sum(revenue), 0) AS revenue,
          arg_max_null(country, ts) AS country, arg_max_null(browser, ts) AS browser,
          arg_max_null(os, ts) AS os, arg_max_null(device, ts) AS device
        FROM ${stage} GROUP BY site_id, visitor_id
      ) e
      LEFT JOIN (
        SELECT site_id, visitor_id, count(*) AS sessions, arg_max_null(source, start_ts) AS source
        FROM ${vagg} WHERE is_new GROUP BY site_id, visitor_id
      ) s ON s.site_id = e.site_id AND s.visitor_id = e.visitor_id
      ON CONFLICT (site_id, visitor_id) DO UPDATE SET
        uid = coalesce(visitors.uid, EXCLUDED.uid),
        first_seen_at = least(visitors.first_seen_at, EXCLUDED.first_seen_at),
        last_seen_at = greatest(visitors.last_seen_at, EXCLUDED.last_seen_at),
        total_sessions = visitors.total_sessions + EXCLUDED.total_sessions,
        total_pageviews = visitors.total_pageviews + EXCLUDED.total_pageviews,
        total_revenue = visitors.total_revenue + EXCLUDED.total_revenue,
        ${['last_country', 'last_browser', 'last_os', 'last_device'].map((c) => `${c} = CASE WHEN ${newer} THEN EXCLUDED.${c} ELSE visitors.${c} END`).join(',\n        ')},
        last_referrer_source = CASE WHEN EXCLUDED.total_sessions > 0 AND ${newer} THEN EXCLUDED.last_referrer_source ELSE visitors.last_referrer_source END`);
    return rows;
  } finally {
    // After a failed statement the transaction is aborted and its rollback drops these anyway;
    // a failing DROP must not replace the error that explains what went wrong.
    if (!table) await tx.exec(`DROP TABLE IF EXISTS ${stage}`).catch(() => {});
    await tx.exec(`DROP TABLE IF EXISTS ${vagg}`).catch(() => {});
    for (const d of drops) await tx.exec(d).catch(() => {});
  }
}

/**
 * One load in its own transaction behind the other analytics writes (source null: nothing to load);
 * `after` adds the caller's own bookkeeping to the same transaction. The new files become visible to queries once it commits.
 * `threads` limits DuckDB's worker threads for the load (Database.withThreads); `before` prepares the source in the
 * same transaction (an import's visits, import-visits.ts); `publish` changes the manifest with the commit (files the load replaced).
 */
export function load(
  db: Database, serial: Serial, manifest: ParquetManifest, source: LoadSource | null,
  after?: (tx: Tx, rows: number) => Promise<void>,
  opts: { threads?: number; before?: (tx: Tx, written: ParquetFile[]) => Promise<void>; publish?: () => void } = {},
): Promise<number> {
  const run = () => writingFiles(db, manifest, async (tx, written) => {
    await opts.before?.(tx, written);
    const rows = source ? await loadRows(tx, manifest, written, source) : 0;
    await after?.(tx, rows);
    return rows;
  }, opts.publish);
  return serial.run(() => (opts.threads ? db.withThreads(opts.threads, run) : run()));
}
