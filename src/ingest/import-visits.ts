// Visits of an import: its staged rows are sessionized together with the visitor's stored visits, so an
// imported event joins a stored visit it comes within 30 minutes of (before or after), as a live event joins
// the open visit. Any split of a history into requests then cuts the same visits as one request.
// A stored visit an import continues and that compaction already moved to Parquet comes back into the hot
// visits table (its file is written again without it), where the loader adds the new events to it; new events
// that bridge two stored visits join them into one (import-merge.ts).
import type { Tx } from '../storage/database.ts';
import { sqlPath, type ParquetFile, type ParquetManifest } from '../storage/parquet-layout.ts';
import { unregister, writePartition } from '../storage/parquet-writer.ts';
import { mergeVisits } from './import-merge.ts';

let seq = 0;
const GAP = `INTERVAL 30 MINUTE`;

export type ImportVisits = {
  /** A temp table of the staged rows with visit_id and engaged_* set, the loader's staging table. */
  source: string;
  /** Parquet files replaced (the caller retires them once the transaction commits). */
  replaced: ParquetFile[];
  /** Stored visits folded into an earlier one because new events bridged the gap between them. */
  merged: number;
  drop: () => Promise<void>;
};

/**
 * `rows`: a FROM-able relation of staged import rows (visit_id null) of one site. `nonce` names the visits
 * the import opens apart from every other import's.
 */
export async function sessionizeImport(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId: string,
  rows: { sql: string; params: unknown[] }, nonce: string): Promise<ImportVisits> {
  const n = ++seq;
  const t = (name: string) => `import_${name}_${n}`;
  const [staged, bounds, known, cands, items, assigned, merges, keyed] = ['staged', 'bounds', 'known', 'cands', 'items', 'assigned', 'merges', 'keyed'].map(t) as string[] as [string, string, string, string, string, string, string, string];
  const drop = async () => { for (const x of [staged, bounds, known, cands, items, assigned, merges, keyed]) await tx.exec(`DROP TABLE IF EXISTS ${x}`).catch(() => {}); };
  const replaced: ParquetFile[] = [];
  try {
    await tx.exec(`CREATE TEMP TABLE ${staged} AS SELECT * FROM ${rows.sql}`, rows.params as any[]);
    await tx.exec(`CREATE TEMP TABLE ${bounds} AS SELECT visitor_id, min(ts) AS lo, max(ts) AS hi FROM ${staged} GROUP BY ALL`);

    // Stored visits that may be within reach. The visitor's latest visit is in visitor_history; older ones
    // matter only to a visitor with events before that visit's start (an import of an earlier stretch),
    // whose visits are then looked up in the hot table and the site's visit files. visitor_history is scanned
    // once for the batch's visitors (a scan that grows with the store: 10–20 ms per request at 10M events).
    await tx.exec(`CREATE TEMP TABLE ${known} AS SELECT h.visitor_id, h.visit_id, h.visit_start, h.last_seen, b.lo, b.hi, b.lo < h.visit_start AS early
      FROM visitor_history h JOIN ${bounds} b ON h.visitor_id = b.visitor_id WHERE h.site_id = ?`, [siteId]);
    await tx.exec(`CREATE TEMP TABLE ${cands} AS
      SELECT visitor_id, visit_id, visit_start AS start_ts, last_seen AS end_ts FROM ${known}
      WHERE last_seen >= lo - ${GAP} AND visit_start <= hi + ${GAP}`);
    const [{ early }] = await tx.query<{ early: number }>(`SELECT count(*)::INTEGER AS early FROM ${known} WHERE early`);
    if (early) {
      const files = await tx.query<ParquetFile>(`SELECT path FROM parquet_files WHERE tbl = 'visits' AND site_id = ?
        AND min_ts <= (SELECT max(hi) FROM ${bounds}) + ${GAP}`, [siteId]);
      const stored = [`SELECT visitor_id, visit_id, start_ts, end_ts FROM visits WHERE site_id = '${siteId.replaceAll("'", "''")}'`,
        ...(files.length ? [`SELECT visitor_id, visit_id, start_ts, end_ts FROM read_parquet([${files.map((f) => sqlPath(manifest.abs(f.path))).join(', ')}])`] : [])];
      await tx.exec(`INSERT INTO ${cands}
        SELECT s.visitor_id, s.visit_id, s.start_ts, s.end_ts FROM (${stored.join(' UNION ALL ')}) s
        JOIN (SELECT visitor_id, lo, hi FROM ${known} WHERE early) b
          ON s.visitor_id = b.visitor_id
        WHERE s.end_ts >= b.lo - ${GAP} AND s.start_ts <= b.hi + ${GAP} AND s.visit_id NOT IN (SELECT visit_id FROM ${cands})`);
    }

    // New events are points, stored visits spans; a visitor's items in time order break into visits where the
    // next one starts 30 minutes or more after everything before it has ended (the live sessionizer's rule).
    await tx.exec(`CREATE TEMP TABLE ${items} AS
      SELECT *, sum(CASE WHEN reach IS NOT NULL AND t0 - reach < ${GAP} THEN 0 ELSE 1 END)
        OVER (PARTITION BY visitor_id ORDER BY t0, t1, rid ROWS UNBOUNDED PRECEDING) AS grp
      FROM (
        SELECT *, max(t1) OVER (PARTITION BY visitor_id ORDER BY t0, t1, rid ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
        FROM (SELECT visitor_id, ts AS t0, ts AS t1, rowid AS rid, NULL::BIGINT AS stored_id FROM ${staged}
              UNION ALL SELECT visitor_id, start_ts, end_ts, NULL, visit_id FROM ${cands}))`);
    await tx.exec(`CREATE TEMP TABLE ${assigned} AS
      SELECT visitor_id, grp, coalesce(arg_min(stored_id, t0) FILTER (WHERE stored_id IS NOT NULL),
          (hash(visitor_id, grp, ?::VARCHAR) & 9007199254740991)::BIGINT) AS visit_id,
        count(stored_id) AS stored, count(rid) AS fresh
      FROM ${items} GROUP BY visitor_id, grp HAVING count(rid) > 0`, [nonce]);
    // Every stored visit in a group with new events comes back to the hot table; a group holding more than one
    // (new events between two stored visits) folds the later ones into the first.
    const grouped = `(SELECT i.stored_id, a.visit_id AS kept FROM ${items} i JOIN ${assigned} a ON a.visitor_id = i.visitor_id AND a.grp = i.grp
      WHERE i.stored_id IS NOT NULL)`;
    await rehydrate(tx, manifest, written, siteId, `(SELECT c.visit_id, c.start_ts FROM ${cands} c WHERE c.visit_id IN (SELECT stored_id FROM ${grouped}))`, replaced);
    await tx.exec(`CREATE TEMP TABLE ${merges} AS SELECT stored_id AS absorbed, kept FROM ${grouped} WHERE stored_id <> kept`);
    const [{ merged }] = await tx.query<{ merged: number }>(`SELECT count(*)::INTEGER AS merged FROM ${merges}`);
    if (merged) await mergeVisits(tx, manifest, written, siteId, merges, replaced);

    // A pageview's engaged page is the visit's previous pageview; for the first new pageview of a continued
    // visit, the stored visit's exit page when the visit ended before it (the live sessionizer's memory).
    // Worked out on a few narrow columns keyed by row id; the rows themselves are joined once, as the load reads them.
    await tx.exec(`CREATE TEMP TABLE ${keyed} AS
      SELECT rid, visit_id, CASE WHEN pv THEN lag(path) OVER w END AS engaged_path, CASE WHEN pv THEN lag(hostname) OVER w END AS engaged_hostname, stored_row
      FROM (
        SELECT s.rowid AS rid, a.visit_id, s.ts, s.path, s.hostname, s.event_type = 'pageview' AS pv, 0 AS stored_row
        FROM ${staged} s JOIN ${items} i ON i.rid = s.rowid JOIN ${assigned} a ON a.visitor_id = i.visitor_id AND a.grp = i.grp
        UNION ALL
        SELECT NULL, v.visit_id, v.end_ts, v.exit_page, v.hostname, true, 1
        FROM visits v WHERE v.site_id = ? AND v.exit_page IS NOT NULL AND v.visit_id IN (SELECT visit_id FROM ${assigned} WHERE stored > 0))
      WINDOW w AS (PARTITION BY visit_id, pv ORDER BY ts, stored_row DESC)`, [siteId]);
    await tx.exec(`DELETE FROM ${keyed} WHERE stored_row = 1`);
    // Set in place: the staged rows become the load's staging table as they are, without a copy of every row.
    await tx.exec(`UPDATE ${staged} SET visit_id = k.visit_id, engaged_path = k.engaged_path, engaged_hostname = k.engaged_hostname
      FROM ${keyed} k WHERE k.rid = ${staged}.rowid`);
    const source = staged;
    for (const x of [bounds, known, cands, items, assigned, merges, keyed]) await tx.exec(`DROP TABLE IF EXISTS ${x}`);
    return { source, replaced, merged, drop };
  } catch (e) {
    await drop();
    throw e;
  }
}

/**
 * Brings the visits of `joined` (visit_id, start_ts) that sit in Parquet files back into the hot table: each
 * file holding one is written again without them (appended to `replaced`).
 */
async function rehydrate(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId: string, joined: string, replaced: ParquetFile[]) {
  const away = `import_away_${seq}`;
  await tx.exec(`CREATE TEMP TABLE ${away} AS SELECT j.* FROM ${joined} j
    WHERE NOT EXISTS (SELECT 1 FROM visits v WHERE v.site_id = ? AND v.visit_id = j.visit_id)`, [siteId]);
  try {
    const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${away}`);
    if (!n) return;
    // A visits file is sorted and ranged by start_ts: only files whose range holds a wanted start are read. A start
    // from visitor_history can be later than the visit's (an import extended it backwards, until compaction
    // recomputes the history): what the first pass does not find is looked for in every file starting before it.
    const site = `'${siteId.replaceAll("'", "''")}'`;
    const wanted = `(SELECT visit_id FROM ${away} a WHERE NOT EXISTS (SELECT 1 FROM visits v WHERE v.site_id = ${site} AND v.visit_id = a.visit_id))`;
    for (const wide of [false, true]) {
      const files = await tx.query<ParquetFile>(`SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts
        FROM parquet_files f WHERE tbl = 'visits' AND site_id = ? AND EXISTS (SELECT 1 FROM ${away} a WHERE a.visit_id IN ${wanted}
          AND ${wide ? 'f.min_ts <= a.start_ts' : 'a.start_ts BETWEEN f.min_ts AND f.max_ts'})
        ORDER BY path`, [siteId]);
      for (const f of files) {
        if (replaced.some((r) => r.path === f.path)) continue;
        const src = `read_parquet(${sqlPath(manifest.abs(f.path))})`;
        const [{ hit }] = await tx.query<{ hit: number }>(`SELECT count(*)::INTEGER AS hit FROM ${src} WHERE visit_id IN ${wanted}`);
        if (!hit) continue;
        // month and site are the file's hive partition columns, not the table's.
        await tx.exec(`INSERT INTO visits BY NAME SELECT * EXCLUDE (month, site) FROM ${src} WHERE visit_id IN ${wanted}`);
        if (hit < f.rows) {
          const rest = `SELECT * EXCLUDE (month, site) FROM ${src} WHERE visit_id NOT IN (SELECT visit_id FROM ${away})`;
          const [stats] = await tx.query<{ rows: number; min_ts: string; max_ts: string }>(
            `SELECT count(*)::INTEGER AS rows, min(start_ts)::VARCHAR AS min_ts, max(start_ts)::VARCHAR AS max_ts FROM (${rest})`);
          await writePartition(tx, manifest, written, 'visits', f.site_id, f.month, rest, stats!, { presorted: true });
        }
        await unregister(tx, [f.path]);
        replaced.push(f);
      }
      const [{ left }] = await tx.query<{ left: number }>(`SELECT count(*)::INTEGER AS left FROM ${wanted}`);
      if (!left) return;
    }
  } finally {
    await tx.exec(`DROP TABLE IF EXISTS ${away}`).catch(() => {});
  }
}
