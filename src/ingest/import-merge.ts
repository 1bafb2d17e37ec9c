// Imported events that fill the gap between two stored visits of a visitor make them one visit, as one request
// holding all the events would have: the later visits are folded into the earliest (its row, the visit ID on their
// events, purchases and visitor history), the visitor's visit count goes down, and the site's first-occurrence
// marks are recomputed by compaction (they record whether a page was seen earlier in the same visit).
import type { Tx } from '../storage/database.ts';
import { sqlPath, type ParquetFile, type ParquetManifest } from '../storage/parquet-layout.ts';
import { unregister, writePartition } from '../storage/parquet-writer.ts';
import { retagHotVisits } from '../storage/hot-events.ts';

const ATTRS = [
  'hostname', 'referrer', 'source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content',
  'country', 'region', 'city', 'browser', 'browser_version', 'os', 'os_version', 'device', 'screen',
];

/**
 * `merges`: a table of (absorbed, kept) visit IDs of one site, every visit already in the hot visits table.
 * Event files rewritten are appended to `replaced` (retired by the caller once the transaction commits).
 */
export async function mergeVisits(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId: string, merges: string, replaced: ParquetFile[]) {
  const ids = `(SELECT absorbed FROM ${merges})`;
  const [span] = await tx.query<{ lo: string | null; hi: string | null }>(`SELECT min(start_ts)::VARCHAR AS lo, max(end_ts)::VARCHAR AS hi
    FROM visits WHERE site_id = ? AND visit_id IN ${ids}`, [siteId]);
  if (!span?.lo) return;

  // The kept visit's row takes in the others: its span, counters, entry and exit, the first visit's attributes.
  const merged = `${merges}_rows`;
  await tx.exec(`CREATE TEMP TABLE ${merged} AS
    SELECT coalesce(m.kept, v.visit_id) AS kept, min(v.start_ts) AS start_ts, max(v.end_ts) AS end_ts,
      arg_min(v.entry_page, v.start_ts) FILTER (WHERE v.entry_page IS NOT NULL) AS entry_page,
      arg_max(v.exit_page, v.end_ts) FILTER (WHERE v.exit_page IS NOT NULL) AS exit_page,
      ${ATTRS.map((c) => `arg_min_null(v.${c}, v.start_ts) AS ${c}`).join(', ')},
      sum(v.pageviews)::INTEGER AS pageviews, sum(v.events)::INTEGER AS events, sum(v.revenue) AS revenue
    FROM visits v LEFT JOIN ${merges} m ON m.absorbed = v.visit_id
    WHERE v.site_id = ? AND (v.visit_id IN ${ids} OR v.visit_id IN (SELECT kept FROM ${merges}))
    GROUP BY ALL`, [siteId]);
  try {
    await tx.exec(`UPDATE visits SET start_ts = r.start_ts, end_ts = r.end_ts, entry_page = r.entry_page, exit_page = r.exit_page,
        ${ATTRS.map((c) => `${c} = r.${c}`).join(', ')}, pageviews = r.pageviews, events = r.events, revenue = r.revenue,
        duration = date_diff('second', r.start_ts, r.end_ts)::INTEGER, is_bounce = (r.pageviews = 1 AND r.events = 1)
      FROM ${merged} r WHERE visits.site_id = ? AND visits.visit_id = r.kept`, [siteId]);
    await tx.exec(`UPDATE visitors SET total_sessions = visitors.total_sessions - x.n
      FROM (SELECT v.visitor_id, count(*) AS n FROM visits v WHERE v.site_id = ? AND v.visit_id IN ${ids} GROUP BY ALL) x
      WHERE visitors.site_id = ? AND visitors.visitor_id = x.visitor_id`, [siteId, siteId]);
    await tx.exec(`DELETE FROM visits WHERE site_id = ? AND visit_id IN ${ids}`, [siteId]);
  } finally {
    await tx.exec(`DROP TABLE IF EXISTS ${merged}`).catch(() => {});
  }
  await tx.exec(`UPDATE purchases SET visit_id = m.kept FROM ${merges} m WHERE purchases.site_id = ? AND purchases.visit_id = m.absorbed`, [siteId]);
  await tx.exec(`UPDATE visitor_history SET visit_id = m.kept, visit_start = v.start_ts
    FROM ${merges} m JOIN visits v ON v.site_id = ? AND v.visit_id = m.kept
    WHERE visitor_history.site_id = ? AND visitor_history.visit_id = m.absorbed`, [siteId, siteId]);

  // Their events carry the kept visit's ID from now on: hot ones in place, each event file holding some written again.
  await retagHotVisits(tx, siteId, merges);
  const files = await tx.query<ParquetFile>(`SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts
    FROM parquet_files WHERE tbl = 'events' AND site_id = ? AND min_ts <= ?::TIMESTAMP AND max_ts >= ?::TIMESTAMP ORDER BY path`, [siteId, span.hi, span.lo]);
  for (const f of files) {
    const src = `read_parquet(${sqlPath(manifest.abs(f.path))})`;
    const [{ hit }] = await tx.query<{ hit: number }>(`SELECT count(*)::INTEGER AS hit FROM ${src} WHERE visit_id IN ${ids}`);
    if (!hit) continue;
    await writePartition(tx, manifest, written, 'events', f.site_id, f.month,
      `SELECT e.* EXCLUDE (month, site) REPLACE (coalesce(m.kept, e.visit_id) AS visit_id) FROM ${src} e LEFT JOIN ${merges} m ON m.absorbed = e.visit_id`,
      { rows: f.rows, min_ts: f.min_ts, max_ts: f.max_ts });
    await unregister(tx, [f.path]);
    replaced.push(f);
  }
  await tx.exec(`INSERT INTO marks_stale VALUES (?, ?::TIMESTAMP) ON CONFLICT DO UPDATE SET until = greatest(marks_stale.until, EXCLUDED.until)`, [siteId, span.hi]);
}
