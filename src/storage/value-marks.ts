// Previous-visit marks per value (source, channel): beside visit_prev (marks.ts), each visit carries
// `source_prev` / `channel_prev`, the start of the same visitor's previous visit with the same value, as a mark
// (milliseconds since year 0, 0 for none). Over a range starting at `from`, a visit is its visitor's first with
// that value in the range exactly when its mark is before `from`, so visitors per source or channel are a sum in
// the pass that counts the other metrics (query/plan/value-marked-sources.ts), where grouping every visit by
// visitor cost 85–90% of those reports. The acquisition values change between most returning visits, which the
// attribute-change bits (attr-marks.ts) cannot sum.
// The loader marks a batch's new visits from visitor_history's value → latest visit start lists; a site's marks
// recompute (marks.ts) computes them too. Migration 0016 added the columns to stores whose visits lacked them
// and listed every site in value_marks_pending: compaction fills that site's marks (fillValueMarks) and the
// planner uses them only once the site has left the list (old files read the columns as NULL meanwhile).
import type { Tx } from './database.ts';
import { MARK_OFFSET_MS } from './mark-time.ts';
import { sqlPath, type ParquetFile, type ParquetManifest } from './parquet-layout.ts';
import { unregister, writePartition } from './parquet-writer.ts';

/** The marked visit columns; their mark is `<column>_prev`, their list in visitor_history `<column>_starts`. */
export const VALUE_COLUMNS = ['source', 'channel'] as const;
export type ValueColumn = (typeof VALUE_COLUMNS)[number];
export const isValueColumn = (c: string): c is ValueColumn => (VALUE_COLUMNS as readonly string[]).includes(c);
export const markColumn = (c: ValueColumn) => `${c}_prev`;
/** The mark columns on visits, in VALUE_COLUMNS' order. */
export const VALUE_MARKS = VALUE_COLUMNS.map(markColumn);
const listColumn = (c: ValueColumn) => `${c}_starts`;

const mark = (ts: string) => `coalesce(epoch_ms(${ts}) + ${MARK_OFFSET_MS}, 0)`;

/** visitor_history's type for a value's list: each value (NULL included, unlike a MAP key) with its latest visit start. */
const LIST_TYPE = 'STRUCT(v VARCHAR, t TIMESTAMP)[]';

/**
 * Adds the columns and the pending list where missing (migration 0016, and the older migrations' steps, whose
 * marks recompute writes them). Rows inserted before carry NULL: unknown.
 */
export async function addValueMarkColumns(tx: Tx) {
  for (const c of VALUE_COLUMNS) {
    await tx.exec(`ALTER TABLE visits ADD COLUMN IF NOT EXISTS ${markColumn(c)} BIGINT`);
    await tx.exec(`ALTER TABLE visitor_history ADD COLUMN IF NOT EXISTS ${listColumn(c)} ${LIST_TYPE}`);
  }
  await tx.exec('CREATE TABLE IF NOT EXISTS value_marks_pending (site_id VARCHAR PRIMARY KEY)');
}

/**
 * `<column>_prev` per row of `rows` (visitor_id, visit_id, visit_start and `columns`, site_id unless `site` is
 * false): the start of the row before it of the same visitor and value, as a mark.
 */
const lagged = (rows: string, keep: string, columns: readonly ValueColumn[], site = true) => `SELECT ${keep}, ${columns.map((c) =>
  `${mark(`lag(visit_start) OVER (PARTITION BY ${site ? 'site_id, ' : ''}visitor_id, ${c} ORDER BY visit_start, visit_id NULLS FIRST)`)} AS ${markColumn(c)}`).join(', ')}
  FROM (${rows})`;

/**
 * A SELECT of (site_id, visit_id, source_prev, channel_prev) for the batch's new visits `fresh` (site_id, visitor_id,
 * visit_id, visit_start and the value columns), against the stored lists of `hist` (visitor_history rows). A visit
 * the batch continues is not among them: its marks are stored, and its start is in the lists already. The lists'
 * entries come first among equal starts (visit_id NULL), which only matters for a tie, where either gives the same mark.
 */
export function batchValueMarks(fresh: string, hist: string): string {
  const parts = VALUE_COLUMNS.map((c) => `(SELECT site_id, visit_id, ${markColumn(c)} FROM (${lagged(
    `SELECT site_id, visitor_id, visit_id, visit_start, ${c} FROM ${fresh}
     UNION ALL SELECT site_id, visitor_id, NULL, visit_start, ${c} FROM (${listEntries(hist, c)})`,
    'site_id, visit_id', [c])}) WHERE visit_id IS NOT NULL)`);
  return `SELECT p0.site_id, p0.visit_id, ${VALUE_COLUMNS.map((c, i) => `p${i}.${markColumn(c)}`).join(', ')}
    FROM ${parts.map((p, i) => (i === 0 ? `${p} p0` : `JOIN ${p} p${i} ON p${i}.site_id = p0.site_id AND p${i}.visit_id = p0.visit_id`)).join(' ')}`;
}

/**
 * Per visitor (site_id, visitor_id), the `<column>_starts` lists of the rows `rowsOf(c)` give (site_id, visitor_id,
 * visit_start and the column `c`): per value, the latest visit start.
 */
export function valueLists(rowsOf: (c: ValueColumn) => string): string {
  const parts = VALUE_COLUMNS.map((c) => `(SELECT site_id, visitor_id, list({'v': v, 't': t}) AS ${listColumn(c)}
    FROM (SELECT site_id, visitor_id, ${c} AS v, max(visit_start) AS t FROM (${rowsOf(c)}) GROUP BY ALL) GROUP BY ALL)`);
  return `SELECT p0.site_id, p0.visitor_id, ${VALUE_COLUMNS.map((c, i) => `p${i}.${listColumn(c)}`).join(', ')}
    FROM ${parts.map((p, i) => (i === 0 ? `${p} p0` : `JOIN ${p} p${i} ON p${i}.site_id IS NOT DISTINCT FROM p0.site_id AND p${i}.visitor_id = p0.visitor_id`)).join(' ')}`;
}

/** The entries of the `c` lists of `hist` (visitor_history rows) as rows (site_id, visitor_id, visit_start, c). */
export const listEntries = (hist: string, c: ValueColumn) =>
  `SELECT site_id, visitor_id, e.t AS visit_start, e.v AS ${c} FROM (SELECT site_id, visitor_id, unnest(${listColumn(c)}) AS e FROM ${hist})`;

/** The list columns of visitor_history, in their order there. */
export const LIST_COLUMNS = VALUE_COLUMNS.map(listColumn);

/**
 * A visit's value of `c`: its first event's, the tie of two first events broken by the values themselves, so the
 * loader's visits row (ingest/load-sql.ts) and the batch's marks (marks.ts) take the same event's value.
 */
export const firstValue = (c: ValueColumn, ts = 'ts') => `arg_min_null(${c}, ${firstOrder(ts)})`;

/** The order firstValue takes a visit's first event in: a row first in it holds every value column's firstValue. */
export const firstOrder = (ts = 'ts') => `struct_pack(t := ${ts}, ${VALUE_COLUMNS.map((x) => `${x} := ${x}`).join(', ')})`;

/** A SELECT of `keep` and each row's marks over `rows` (visitor_id, visit_id, visit_start and the value columns) of one site. */
export const siteValueMarks = (rows: string, keep: string) => lagged(rows, keep, VALUE_COLUMNS, false);
