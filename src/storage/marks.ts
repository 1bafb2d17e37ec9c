// First-occurrence marks: each stored event carries when its visitor was last seen before it (seen_prev)
// and when the visitor was last on the same page, signed by whether that was in the same visit (page_prev).
// Over a range starting at `from`, an event is its visitor's first on the page in range exactly when that
// earlier time is before `from`, and likewise for visits and for the visitor overall — so distinct visitors
// and visits per page become sums over one scan (query/plan/marked-sources.ts).
// The loader marks each batch from visitor_history; an event older than its visitor's latest stored one
// (an import of past data) records the site in marks_stale, and compaction then recomputes the site's marks.
import type { Tx } from './database.ts';
import { sqlPath, type ParquetFile, type ParquetManifest } from './parquet-layout.ts';
import { unregister, writePartition } from './parquet-writer.ts';
import { EVENT_COLUMN_LIST } from './event-columns.ts';
import { MARK_OFFSET_MS } from './mark-time.ts';
import { changedBits, EVENT_FAMILIES, FAMILIES, packed, packedTuple, pairBits, tuplesOf, withTupleIds, type Family } from './attr-marks.ts';
import { batchValueMarks, firstValue, LIST_COLUMNS, listEntries, siteValueMarks, valueLists, VALUE_COLUMNS, VALUE_MARKS } from './value-marks.ts';

/** Every column of a stored event file: the event columns, then the marks (attrs_changed: attr-marks.ts). */
export const STORED_EVENT_COLUMNS = `${EVENT_COLUMN_LIST}, seen_prev, page_prev, attrs_changed`;

const ms = (col: string) => `(epoch_ms(${col}) + ${MARK_OFFSET_MS})`;


/** visitor_history's columns in the order the statements below write them (older stores have them in another order). */
const HISTORY_COLUMNS = ['site_id', 'visitor_id', 'last_seen', 'visit_id', 'visit_start', 'pages', 'last_event', 'visit_attrs', ...LIST_COLUMNS].join(', ');

/** visitor_history.pages is keyed by path; a map key cannot be NULL, and no path is empty. */
const pageKey = (path = 'path') => `coalesce(${path}, '')`;

/**
 * The stored marks of a row with prev_seen_ts, prev_page_ts and visit_start; the same rule for a batch and a
 * rebuild. page_prev is negative when the previous time on the page was in another visit: it was in this
 * visit exactly when it is not older than the visit's start, because one visitor's visits never overlap.
 */
const ENCODE = `coalesce(${ms('prev_seen_ts')}, 0) AS seen_prev,
  CASE WHEN prev_page_ts IS NULL THEN 0 WHEN prev_page_ts < visit_start THEN -${ms('prev_page_ts')} ELSE ${ms('prev_page_ts')} END AS page_prev`;

/**
 * A visit's marks, over rows of visits with site_id, visitor_id, visit_start and attrs (packed(FAMILIES), NULL
 * when not known): the start of the visitor's previous visit, and which attributes differ from that visit's
 * (attr-marks.ts). Both from one window, so ties of visit_start are broken alike.
 */
const visitMarks = (rows: string, keep: string) => `SELECT ${keep}, coalesce(${ms('prev_start')}, 0) AS visit_prev,
    CASE WHEN prev_start IS NULL THEN 0 ELSE ${changedBits(FAMILIES, (f) => `attrs.${f}`, (f) => `prev_attrs.${f}`, 'prev_attrs IS NULL')} END AS visit_changed
  FROM (SELECT *, lag(visit_start) OVER vw AS prev_start, lag(attrs) OVER vw AS prev_attrs FROM (${rows})
    WINDOW vw AS (PARTITION BY site_id, visitor_id ORDER BY visit_start))`;

/** The bits of an event's attributes against the previous event's, `prev(f)` (attr-marks.ts). */
const eventBits = (cur: (f: Family) => string, prev: (f: Family) => string, unknown?: string) => changedBits(EVENT_FAMILIES, cur, prev, unknown);

/**
 * Creates the view `out`: the rows of `stage` (events of any sites, any order) with their marks, and the table
 * `visits`: per visit of the batch (site_id, visit_id) its visit_start, marks (visit_prev, visit_changed and the
 * value marks: the loader stores them on the visits it opens) and visit_attrs. Moves visitor_history and
 * marks_stale on, in the caller's transaction. Returns the table's name and the statements that drop `out` and
 * what it reads, for the caller to run when done with them. The visit's marks are kept apart from the rows: carried
 * on each of them they were copied 50,000 times per import request (a struct of 17 strings among them).
 */
export async function markBatch(tx: Tx, stage: string, out: string, seq: number): Promise<{ visits: string; drops: string[] }> {
  const hist = `marks_hist_${seq}`;
  const found = `marks_found_${seq}`;
  const keyed = `marks_keyed_${seq}`;
  const fresh = `marks_fresh_${seq}`;
  const valued = `marks_valued_${seq}`;
  const visits = `marks_visits_${seq}`;
  try {
    // The batch's visitors are found on the two key columns alone, then their rows fetched by row id: joining
    // whole rows scanned every visitor's pages map, a cost that grew with the stored history (1M visitors:
    // ~300 ms per batch against ~50).
    await tx.exec(`CREATE TEMP TABLE ${found} AS SELECT h.rowid AS rid FROM visitor_history h
      SEMI JOIN (SELECT DISTINCT site_id, visitor_id FROM ${stage}) s ON h.site_id = s.site_id AND h.visitor_id = s.visitor_id`);
    await tx.exec(`CREATE TEMP TABLE ${hist} AS SELECT h.* FROM visitor_history h SEMI JOIN ${found} f ON h.rowid = f.rid`);
    // The batch's new visits (not the stored visit it continues) and their previous-visit marks per value (value-marks.ts).
    await tx.exec(`CREATE TEMP TABLE ${fresh} AS SELECT b.* FROM (SELECT site_id, visitor_id, visit_id, min(ts) AS visit_start,
        ${VALUE_COLUMNS.map((c) => `${firstValue(c)} AS ${c}`).join(', ')} FROM ${stage} GROUP BY site_id, visitor_id, visit_id) b
      LEFT JOIN ${hist} h ON h.site_id = b.site_id AND h.visitor_id = b.visitor_id WHERE h.visit_id IS DISTINCT FROM b.visit_id`);
    await tx.exec(`CREATE TEMP TABLE ${valued} AS ${batchValueMarks(fresh, hist)}`);
    // A visit that continues the stored one starts where it did; the visit before a new one is the batch's
    // previous visit of the visitor, or the stored one. Visit starts are grouped, not windowed (a third less
    // time for this statement).
    await tx.exec(`CREATE TEMP TABLE ${visits} AS
      WITH starts AS (
        SELECT b.site_id, b.visitor_id, b.visit_id, CASE WHEN b.visit_id = h.visit_id THEN h.visit_start ELSE b.first END AS visit_start,
          CASE WHEN b.visit_id = h.visit_id THEN h.visit_attrs ELSE b.attrs END AS attrs
        FROM (SELECT site_id, visitor_id, visit_id, min(ts) AS first, arg_min_null(${packed(FAMILIES)}, ts) AS attrs FROM ${stage} GROUP BY site_id, visitor_id, visit_id) b
        LEFT JOIN ${hist} h ON h.site_id = b.site_id AND h.visitor_id = b.visitor_id),
      prev AS (${visitMarks(`SELECT site_id, visitor_id, visit_id, visit_start, attrs FROM starts
          UNION SELECT site_id, visitor_id, visit_id, visit_start, visit_attrs FROM ${hist}`, 'site_id, visit_id, visit_start, attrs')})
      SELECT prev.site_id, prev.visit_id, prev.visit_start, prev.visit_prev, prev.visit_changed, prev.attrs AS visit_attrs, ${VALUE_MARKS.map((c) => `vm.${c}`).join(', ')}
      FROM prev LEFT JOIN ${valued} vm ON vm.site_id = prev.site_id AND vm.visit_id = prev.visit_id
      WHERE (prev.site_id, prev.visit_id) IN (SELECT site_id, visit_id FROM starts)`);
    // The windows sort the row ids, keys and times alone, and `out` joins their marks to the rows as a view:
    // windowing the whole rows and copying them into another table cost ~25 µs per event on the ingest path. The
    // previous event's attributes are joined by its row id: lagging each through the window made the windows carry
    // every value, and cost 3–4 times what they cost narrow (~0.4 s of a 50,000-event import at 1M stored).
    // A page's previous time is joined from the unnested maps: looking it up in the map
    // joined to every event copied a visitor's whole map per event, which for one visitor with 10k pages
    // (an office behind one IP, a crawler with a browser's user agent) ran out of memory.
    await tx.exec(`CREATE TEMP TABLE ${keyed} AS
      WITH pages AS (${pagesOf(hist)}),
      w AS (SELECT rowid AS rid, lag(rowid) OVER v AS prev_rid, lag(ts) OVER v AS prev_ts, lag(ts) OVER p AS prev_page_ts FROM ${stage}
        WINDOW v AS (PARTITION BY site_id, visitor_id ORDER BY ts), p AS (PARTITION BY site_id, visitor_id, path ORDER BY ts)),
      e AS (
        SELECT w.rid, s.site_id, s.visit_id,
          coalesce(w.prev_ts, h.last_seen) AS prev_seen_ts,
          coalesce(w.prev_page_ts, hp.ts) AS prev_page_ts,
          CASE WHEN w.prev_ts IS NOT NULL THEN ${eventBits((f) => `s.${f}`, (f) => `q.${f}`)}
            WHEN h.last_seen IS NULL THEN 0
            ELSE ${eventBits((f) => `s.${f}`, (f) => `h.last_event.${f}`, 'h.last_event IS NULL')} END AS attrs_changed
        FROM w JOIN ${stage} s ON s.rowid = w.rid
        LEFT JOIN ${stage} q ON q.rowid = w.prev_rid
        LEFT JOIN (SELECT site_id, visitor_id, last_seen, last_event FROM ${hist}) h ON h.site_id = s.site_id AND h.visitor_id = s.visitor_id
        LEFT JOIN pages hp ON hp.site_id = s.site_id AND hp.visitor_id = s.visitor_id AND hp.k = ${pageKey('s.path')})
      SELECT e.rid, ${ENCODE}, e.attrs_changed
      FROM e JOIN ${visits} m ON m.site_id = e.site_id AND m.visit_id = e.visit_id`);
    await tx.exec(`CREATE TEMP VIEW ${out} AS SELECT s.*, k.* EXCLUDE (rid) FROM ${stage} s JOIN ${keyed} k ON k.rid = s.rowid`);
    // Marks of later stored events would have to change; ranges from after the newest such event stay exact.
    await tx.exec(`INSERT INTO marks_stale
      SELECT s.site_id, max(s.ts) FROM ${stage} s JOIN ${hist} h ON h.site_id = s.site_id AND h.visitor_id = s.visitor_id
      WHERE s.ts < h.last_seen GROUP BY s.site_id
      ON CONFLICT DO UPDATE SET until = greatest(marks_stale.until, EXCLUDED.until)`);
    // Rewritten whole: updating a MAP column in place costs DuckDB several times a delete and an insert.
    await tx.exec(`DELETE FROM visitor_history WHERE rowid IN (SELECT rid FROM ${found})`);
    // The latest visit's id, start and attributes from one row (ties of ts would otherwise mix two visits).
    await tx.exec(`INSERT INTO visitor_history (${HISTORY_COLUMNS})
      SELECT b.site_id, b.visitor_id,
        CASE WHEN h.last_seen > b.last_seen THEN h.last_seen ELSE b.last_seen END,
        CASE WHEN h.last_seen > b.last_seen THEN h.visit_id ELSE lv.visit_id END,
        CASE WHEN h.last_seen > b.last_seen THEN h.visit_start ELSE lv.visit_start END,
        p.pages,
        CASE WHEN h.last_seen > b.last_seen THEN h.last_event ELSE b.last_event END,
        CASE WHEN h.last_seen > b.last_seen THEN h.visit_attrs ELSE lv.visit_attrs END,
        ${LIST_COLUMNS.map((c) => `l.${c}`).join(', ')}
      FROM (SELECT site_id, visitor_id, max(ts) AS last_seen,
              arg_max(visit_id, ts) AS lv_id,
              arg_max(${packed(EVENT_FAMILIES)}, ts) AS last_event
            FROM ${stage} GROUP BY site_id, visitor_id) b
      JOIN ${visits} lv ON lv.site_id = b.site_id AND lv.visit_id = b.lv_id
      LEFT JOIN ${hist} h ON h.site_id = b.site_id AND h.visitor_id = b.visitor_id
      JOIN (${latestPages(`${pagesOf(hist)}
            UNION ALL SELECT site_id, visitor_id, ${pageKey()}, ts FROM ${stage}`)}) p ON p.site_id = b.site_id AND p.visitor_id = b.visitor_id
      LEFT JOIN (${valueLists((c) => `SELECT site_id, visitor_id, visit_start, ${c} FROM ${fresh} UNION ALL ${listEntries(hist, c)}`)}) l
        ON l.site_id = b.site_id AND l.visitor_id = b.visitor_id`);
  } finally {
    for (const t of [hist, found, fresh, valued]) await tx.exec(`DROP TABLE IF EXISTS ${t}`).catch(() => {});
  }
  return { visits, drops: [`DROP VIEW IF EXISTS ${out}`, `DROP TABLE IF EXISTS ${keyed}`, `DROP TABLE IF EXISTS ${visits}`] };
}

/** The (site_id, visitor_id, k, ts) pairs of the `pages` maps of a visitor_history relation. */
const pagesOf = (hist: string) => `SELECT site_id, visitor_id, unnest(map_keys(pages)) AS k, unnest(map_values(pages)) AS ts FROM ${hist}`;

/** Per visitor, the map page → latest time of `pairs` (site_id, visitor_id, k, ts). */
const latestPages = (pairs: string) => `SELECT site_id, visitor_id, map_from_entries(list({'k': k, 'v': ts})) AS pages
  FROM (SELECT site_id, visitor_id, k, max(ts) AS ts FROM (${pairs}) GROUP BY ALL) GROUP BY ALL`;

/** A site's registered files of `tbl`. */
export const filesOf = (tx: Tx, tbl: 'events' | 'visits', siteId: string) => tx.query<ParquetFile>(
  `SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files WHERE tbl = ? AND site_id = ? ORDER BY path`, [tbl, siteId]);

/** `cols` of a file, with its row numbers (the key its marks are joined back on). */
const readFile = (manifest: ParquetManifest, f: ParquetFile, cols: string) =>
  `SELECT ${cols} FROM read_parquet(${sqlPath(manifest.abs(f.path))}, file_row_number = true)`;

/** `files` read together, each row with its file's number and its row number, then `cols`. */
export const numbered = (manifest: ParquetManifest, files: ParquetFile[], cols: string) =>
  files.map((f, i) => readFile(manifest, f, `${i} AS file_no, file_row_number, ${cols}`)).join(' UNION ALL ');

/** Writes each of `files` anew: `keep` (which includes file_row_number) plus `markCols` of `marks` for its rows. */
export async function rewrite(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], files: ParquetFile[], keep: string, marks: string, markCols: string[]) {
  for (const [i, f] of files.entries()) {
    await writePartition(tx, manifest, written, f.tbl, f.site_id, f.month,
      `SELECT * FROM (SELECT e.* EXCLUDE (file_row_number), ${markCols.map((c) => `m.${c}`).join(', ')}
       FROM (${readFile(manifest, f, keep)}) e JOIN ${marks} m ON m.file_no = ${i} AND m.file_row_number = e.file_row_number)`,
      { rows: f.rows, min_ts: f.min_ts, max_ts: f.max_ts });
  }
  await unregister(tx, files.map((f) => f.path));
}

/**
 * Recomputes every mark of a site from all its events and visits (a mark may point years back) and writes
 * each file anew with them; unregisters the old files (returned: the caller removes them from the manifest
 * and disk), rebuilds the site's visitor_history and clears it from marks_stale.
 * Only the marks are computed over the whole history, keyed by file and row number, so a big site costs a
 * sort of a few narrow columns rather than of every event (10M events: ~35 s, where sorting whole rows spilled 4 GB).
 */
export async function rebuildMarks(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId: string): Promise<ParquetFile[]> {
  const events = await filesOf(tx, 'events', siteId);
  const visits = await filesOf(tx, 'visits', siteId);
  const tag = crypto.randomUUID().replaceAll('-', '');
  const [ex, em, et, vx, vm, vt, va] = ['ex', 'em', 'et', 'vx', 'vm', 'vt', 'va'].map((n) => `marks_${n}_${tag}`) as [string, string, string, string, string, string, string];
  const history = events.map((f) => readFile(manifest, f, 'visitor_id, path, ts')).join(' UNION ALL ');
  // Visits: in their files, and open ones in the hot table (file_no -1).
  const visitRows = [...(visits.length ? [numbered(manifest, visits, `visitor_id, visit_id, start_ts, ${FAMILIES.join(', ')}`)] : []),
    `SELECT -1 AS file_no, NULL::BIGINT AS file_row_number, visitor_id, visit_id, start_ts, ${FAMILIES.join(', ')} FROM visits WHERE site_id = ?`].join(' UNION ALL ');
  try {
    await tx.exec('DELETE FROM visitor_history WHERE site_id = ?', [siteId]);
    // Visits first: a visitor's history takes its latest visit's attributes from them.
    await tx.exec(`CREATE TEMP TABLE ${vt} AS ${tuplesOf(visitRows, FAMILIES)}`, [siteId]);
    await tx.exec(`CREATE TEMP TABLE ${vx} AS SELECT file_no, file_row_number, visit_id, tid, lag(tid) OVER vw AS prev_tid,
        coalesce(${ms('lag(start_ts) OVER vw')}, 0) AS visit_prev
      FROM (${withTupleIds(visitRows, vt, FAMILIES)}) WINDOW vw AS (PARTITION BY visitor_id ORDER BY start_ts)`, [siteId]);
    // The previous-visit marks per value (value-marks.ts), from the same rows.
    await tx.exec(`CREATE TEMP TABLE ${va} AS ${siteValueMarks(`SELECT file_no, file_row_number, visitor_id, visit_id, start_ts AS visit_start, ${VALUE_COLUMNS.join(', ')}
      FROM (${visitRows})`, `file_no, file_row_number, visitor_id, visit_id, visit_start, ${VALUE_COLUMNS.join(', ')}`)}`, [siteId]);
    await tx.exec(`CREATE TEMP TABLE ${vm} AS SELECT x.file_no, x.file_row_number, x.visit_id, x.visit_prev, coalesce(b.bits, 0) AS visit_changed,
        ${VALUE_MARKS.map((c) => `a.${c}`).join(', ')}
      FROM ${vx} x LEFT JOIN (${pairBits(vx, vt, FAMILIES)}) b ON b.tid = x.tid AND b.prev_tid = x.prev_tid
      JOIN ${va} a ON a.file_no = x.file_no AND a.visit_id = x.visit_id`);
    await rewrite(tx, manifest, written, visits, `COLUMNS(c -> c NOT IN ('month', 'site', 'visit_prev', 'attrs_changed', ${VALUE_MARKS.map((c) => `'${c}'`).join(', ')}))`, vm,
      ['visit_prev', 'visit_changed AS attrs_changed', ...VALUE_MARKS]);
    await tx.exec(`UPDATE visits SET visit_prev = m.visit_prev, attrs_changed = m.visit_changed, ${VALUE_MARKS.map((c) => `${c} = m.${c}`).join(', ')} FROM ${vm} m
      WHERE m.file_no = -1 AND visits.site_id = ? AND visits.visit_id = m.visit_id`, [siteId]);
    if (events.length) {
      const rows = numbered(manifest, events, `visitor_id, visit_id, path, ts, ${EVENT_FAMILIES.join(', ')}`);
      await tx.exec(`CREATE TEMP TABLE ${et} AS ${tuplesOf(rows, EVENT_FAMILIES)}`);
      await tx.exec(`CREATE TEMP TABLE ${ex} AS SELECT file_no, file_row_number, visitor_id, visit_id, ts, tid, lag(tid) OVER w AS prev_tid,
          lag(ts) OVER w AS prev_seen_ts, lag(ts) OVER p AS prev_page_ts, min(ts) OVER (PARTITION BY visit_id) AS visit_start
        FROM (${withTupleIds(rows, et, EVENT_FAMILIES)})
        WINDOW w AS (PARTITION BY visitor_id ORDER BY ts), p AS (PARTITION BY visitor_id, path ORDER BY ts)`);
      await tx.exec(`CREATE TEMP TABLE ${em} AS SELECT x.file_no, x.file_row_number, ${ENCODE}, coalesce(b.bits, 0) AS attrs_changed
        FROM ${ex} x LEFT JOIN (${pairBits(ex, et, EVENT_FAMILIES)}) b ON b.tid = x.tid AND b.prev_tid = x.prev_tid`);
      // Old files may lack the mark columns (written before they existed): only the log's columns are kept.
      await rewrite(tx, manifest, written, events, `${EVENT_COLUMN_LIST}, file_row_number`, em, ['seen_prev', 'page_prev', 'attrs_changed']);
      // The latest visit's id and start from one row; its attributes as stored on it (a visit unknown here leaves
      // them NULL: every bit set next time).
      await tx.exec(`INSERT INTO visitor_history (${HISTORY_COLUMNS})
        SELECT ?, b.visitor_id, b.last_seen, b.lv.visit_id, b.lv.visit_start, p.pages, ${packedTuple(EVENT_FAMILIES, 'te')}, ${packedTuple(FAMILIES, 'tv')},
          ${LIST_COLUMNS.map((c) => `l.${c}`).join(', ')}
        FROM (SELECT visitor_id, max(ts) AS last_seen, arg_max(struct_pack(visit_id := visit_id, visit_start := visit_start), ts) AS lv, arg_max(tid, ts) AS tid
              FROM ${ex} GROUP BY visitor_id) b
        JOIN (${latestPages(`SELECT '' AS site_id, visitor_id, ${pageKey()} AS k, ts FROM (${history})`)}) p ON p.visitor_id = b.visitor_id
        JOIN ${et} te ON te.tid = b.tid
        LEFT JOIN (SELECT visit_id, any_value(tid) AS tid FROM ${vx} GROUP BY visit_id) v ON v.visit_id = b.lv.visit_id
        LEFT JOIN ${vt} tv ON tv.tid = v.tid
        LEFT JOIN (${valueLists((c) => `SELECT NULL AS site_id, visitor_id, visit_start, ${c} FROM ${va}`)}) l ON l.visitor_id = b.visitor_id`, [siteId]);
    }
    await tx.exec('DELETE FROM marks_stale WHERE site_id = ?', [siteId]);
    await tx.exec('DELETE FROM value_marks_pending WHERE site_id = ?', [siteId]);
    return [...events, ...visits];
  } finally {
    for (const t of [ex, em, et, vx, vm, vt, va]) await tx.exec(`DROP TABLE IF EXISTS ${t}`).catch(() => {});
  }
}
