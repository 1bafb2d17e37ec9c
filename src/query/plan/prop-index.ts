// The property index (storage's prop_values: one row per event and property key it carries, with its value, time
// and visitor) as the relation a query of one key's values, or of the key list, reads where it answers exactly —
// the same rows the scan of the events' property maps would group, without reading every event's map.
import { and, frag, sql, type Fragment } from '../../storage/sql.ts';
import { DUCKDB, dialectOf, type Dialect } from '../sql/dialect.ts';
import { conditions, needsProp } from '../sql/filter-sql.ts';
import type { QueryDim } from '../parse/query-dimensions.ts';
import type { Scope } from './scope.ts';

/** The index's rows standing for the scope's events (one per event, or per event and key), and the dimension's expression on them. */
export type PropRows = { from: Fragment; dim: Fragment };

/** The raw columns the index can count: distinct visitors and rows (percentage is a share of the visitors). */
const COUNTABLE = new Set(['visitors', 'events']);

/** A filter on the one key, tested on the index's value column (its rows all carry the key). */
const ON_VALUE: Dialect = { ...DUCKDB, prop: () => frag('value'), hasProps: () => frag('TRUE') };

/**
 * The index's rows for a query of `dims` counting `need`, or null where they would not answer exactly (another
 * engine, dimension, metric or filter; realtime and any range are fine: every row has its instant):
 * - `event:props:<key>` with filters only on that key, one of which only an event carrying it passes (the panel's
 *   `is_not "(none)"`, or `is <values>`): the filtered events are the key's index rows passing the same tests;
 * - `event:props` (the key list) unfiltered: one row per event and key, as the scan unnests them.
 */
export function propIndexRows(s: Scope, dims: readonly QueryDim[], need: ReadonlySet<string>): PropRows | null {
  const [d] = dims;
  if (!d || dims.length !== 1 || dialectOf(s).name !== 'duckdb' || ![...need].every((m) => COUNTABLE.has(m))) return null;
  const inRange = sql`site_id = ${s.site.id} AND ts >= ${s.range.fromUtc}::TIMESTAMP AND ts < ${s.range.toUtc}::TIMESTAMP`;
  if (d.kind === 'prop_key') {
    return s.filters.length ? null : { from: sql`(SELECT key, ts, visitor_id FROM prop_values WHERE ${inRange})`, dim: frag('key') };
  }
  if (d.kind !== 'prop') return null;
  const f = s.filters;
  if (!f.some(needsProp) || f.some((x) => x.target.kind !== 'prop' || x.target.key !== d.key)) return null;
  return {
    from: sql`(SELECT value, ts, visitor_id FROM prop_values WHERE ${and([inRange, sql`key = ${d.key}`, conditions(f, ON_VALUE)])})`,
    dim: frag(`coalesce(value, '(none)')`),
  };
}
