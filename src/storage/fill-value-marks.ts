// Fills the previous-visit marks per value (value-marks.ts) of a site listed in value_marks_pending (migration
// 0016): computed over all its visits (files and hot rows), its visit files written anew with them, its hot
// visits updated, and its visitors' value lists in visitor_history set. Only the visits are read and written
// (a marks recompute, marks.ts, also rewrites every event file): at 100M events ~29M visits against ~100M events.
import type { Tx } from './database.ts';
import type { ParquetFile, ParquetManifest } from './parquet-layout.ts';
import { filesOf, numbered, rewrite } from './marks.ts';
import { LIST_COLUMNS, siteValueMarks, valueLists, VALUE_COLUMNS, VALUE_MARKS } from './value-marks.ts';

/**
 * Visits windowed per statement at most: the site's visitors are split into buckets by a hash of their ID, each
 * bucket's visits windowed apart (100M events, ~29M visits in one statement: out of memory at the default 2 GB).
 */
const BUCKET_VISITS = 3_000_000;

/** Fills `siteId`'s marks per value and takes it off value_marks_pending; returns the visit files replaced. */
export async function fillValueMarks(tx: Tx, manifest: ParquetManifest, written: ParquetFile[], siteId: string): Promise<ParquetFile[]> {
  const visits = await filesOf(tx, 'visits', siteId);
  const tag = crypto.randomUUID().replaceAll('-', '');
  const [marks, bucket] = [`value_marks_${tag}`, `value_bucket_${tag}`];
  const cols = `visitor_id, visit_id, start_ts AS visit_start, ${VALUE_COLUMNS.join(', ')}`;
  const rows = [...(visits.length ? [numbered(manifest, visits, cols)] : []),
    `SELECT -1 AS file_no, NULL::BIGINT AS file_row_number, ${cols} FROM visits WHERE site_id = ?`].join(' UNION ALL ');
  const [{ hot }] = await tx.query<{ hot: number }>('SELECT count(*)::INTEGER AS hot FROM visits WHERE site_id = ?', [siteId]);
  const buckets = Math.max(1, Math.ceil((visits.reduce((n, f) => n + f.rows, 0) + Number(hot)) / BUCKET_VISITS));
  try {
    await tx.exec(`CREATE TEMP TABLE ${marks} (file_no INTEGER, file_row_number BIGINT, visit_id BIGINT, ${VALUE_MARKS.map((c) => `${c} BIGINT`).join(', ')})`);
    for (let b = 0; b < buckets; b++) {
      await tx.exec(`CREATE TEMP TABLE ${bucket} AS SELECT * FROM (${rows}) WHERE hash(visitor_id) % ${buckets} = ${b}`, [siteId]);
      await tx.exec(`INSERT INTO ${marks} ${siteValueMarks(`SELECT * FROM ${bucket}`, 'file_no, file_row_number, visit_id')}`);
      await tx.exec(`UPDATE visitor_history SET ${LIST_COLUMNS.map((c) => `${c} = l.${c}`).join(', ')}
        FROM (${valueLists((c) => `SELECT NULL AS site_id, visitor_id, visit_start, ${c} FROM ${bucket}`)}) l
        WHERE visitor_history.site_id = ? AND visitor_history.visitor_id = l.visitor_id`, [siteId]);
      await tx.exec(`DROP TABLE ${bucket}`);
    }
    await rewrite(tx, manifest, written, visits, `COLUMNS(c -> c NOT IN ('month', 'site', ${VALUE_MARKS.map((c) => `'${c}'`).join(', ')}))`, marks, VALUE_MARKS);
    await tx.exec(`UPDATE visits SET ${VALUE_MARKS.map((c) => `${c} = m.${c}`).join(', ')} FROM ${marks} m
      WHERE m.file_no = -1 AND visits.site_id = ? AND visits.visit_id = m.visit_id`, [siteId]);
    await tx.exec('DELETE FROM value_marks_pending WHERE site_id = ?', [siteId]);
    return visits;
  } finally {
    for (const t of [marks, bucket]) await tx.exec(`DROP TABLE IF EXISTS ${t}`).catch(() => {});
  }
}
