// Distinct visitors per visit attribute (device, country, source…) from the attribute-change marks
// (storage/attr-marks.ts) beside the first-occurrence marks: a visitor none of whose rows in range has the
// attribute's bit set with its previous row in range too (`changed` false) shows one value of it over the range,
// so its first row in range (first on the page, for events) is summed into that value's group; the visitors
// that did change are counted distinct, few as they usually are. Exact under the marks' own condition (marksHold).
import { EVENT_FAMILIES, FAMILIES, maskOf, type Family } from '../../storage/attr-marks.ts';
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import { fromMark, markedEvents, markedVisits } from './marked-sources.ts';
import { eventsSource, visitsSource, type Scope } from './scope.ts';
import type { Runner } from '../sql/dialect.ts';
import { rows } from '../run.ts';

/**
 * The families worth this path on the visits: those that seldom change between a visitor's visits. The
 * acquisition ones (source, channel, referrer, UTM) change between most returning visits, and counting the
 * changed visitors distinct beside the sums costs more than counting every group distinct (bench/dashboard.ts).
 */
const VISIT_FAMILIES: readonly Family[] = EVENT_FAMILIES;

/** The family of a stored column on `table` whose bits this path uses, or null. */
export function familyOf(column: string, table: 'visits' | 'events'): Family | null {
  const f = FAMILIES.find((x) => x === column);
  if (!f) return null;
  return (table === 'visits' ? VISIT_FAMILIES : EVENT_FAMILIES).includes(f) ? f : null;
}

/**
 * Rows with a bit of `families` set and their previous row in range. `attrs_changed > 0` first: row groups whose
 * bits are all 0 (nearly all) are skipped on their statistics (12 months of events: ~500 → ~15 ms). Every stored
 * row has the column (migration 0013 rewrote older files; an insert that left it out would set every bit).
 */
const changedRows = (families: readonly Family[], prev: string, scope: Scope) =>
  sql`attrs_changed > 0 AND attrs_changed & ${frag(String(maskOf(families)))} <> 0 AND ${frag(prev)} >= ${fromMark(scope)}`;

/**
 * Whether any visitor of the scope showed more than one value of `families` on `table` (the `changed` of the
 * relations below is true somewhere). Usually none did: then the plain marked relation's sums answer alone, and a
 * distinct count that would see no row costs no time (page × device over 12 months: a third of the statement).
 */
export async function anyChanged(db: Runner, scope: Scope, families: readonly Family[], table: 'visits' | 'events'): Promise<boolean> {
  const [src, prev] = table === 'visits' ? [visitsSource(scope), 'visit_prev'] : [eventsSource(scope), 'seen_prev'];
  return (await rows(db, sql`SELECT 1 AS x FROM ${src} WHERE ${changedRows(families, prev, scope)} LIMIT 1`)).length > 0;
}

/**
 * An aggregate counting the rows of markedVisits (markedEvents: `seen_prev`) that anyChanged looks for: grouped in the
 * pass that sums the marks, it asks the question without a probe of its own (a LIMIT 1 that finds no row reads every
 * visit's bits: ~70 ms of CPU over 12 months of the 10M store, as much as the pass).
 */
export const changedCount = (scope: Scope, families: readonly Family[], prev: 'visit_prev' | 'seen_prev' = 'visit_prev'): Fragment =>
  sql`count(*) FILTER (WHERE ${changedRows(families, prev, scope)})`;

/** The scope's visits as markedVisits, each with `changed`: its visitor showed more than one value of `families` in range. */
export function attrMarkedVisits(scope: Scope, families: readonly Family[]): Fragment {
  return sql`(SELECT *, visitor_id IN (SELECT visitor_id FROM ${visitsSource(scope)} WHERE ${changedRows(families, 'visit_prev', scope)}) AS changed
    FROM ${markedVisits(scope)})`;
}

/** The scope's events as markedEvents, each with `changed`: its visitor showed more than one value of `families` in range. */
export function attrMarkedEvents(scope: Scope, families: readonly Family[]): Fragment {
  return sql`(SELECT *, visitor_id IN (SELECT visitor_id FROM ${eventsSource(scope)} WHERE ${changedRows(families, 'seen_prev', scope)}) AS changed
    FROM ${markedEvents(scope)})`;
}
