// Attribute-change marks: beside its first-occurrence marks (marks.ts), each stored visit and event carries
// `attrs_changed`, a bitmask whose bit i is set when the row's value of visit attribute FAMILIES[i] differs
// (IS DISTINCT FROM) from that of the same visitor's previous row — the one its visit_prev (visits) or
// seen_prev (events) mark points to — and 0 without a previous row. A visitor none of whose in-range rows has
// the bit set with its previous row in range too shows one value of the attribute over the whole range, so
// its first-in-range mark can be summed per value instead of counting distinct visitors
// (query/plan/attr-marked-sources.ts). A bit set where nothing changed only costs speed, never exactness: a
// previous row whose values are unknown (history from before these marks) sets every bit, as does an insert without it.

/** The visit attributes, bit i for FAMILIES[i]; their order is stored: append only. */
export const FAMILIES = [
  'referrer', 'source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content',
  'country', 'region', 'city', 'browser', 'browser_version', 'os', 'os_version', 'device', 'screen',
] as const;
export type Family = (typeof FAMILIES)[number];

/**
 * The families an event's bits cover: derived from the user agent and the address, the visit's value on each of
 * its events. The acquisition families change on nearly every event (each pageview's own referrer: 8 in 10
 * events on the benchmark's data), would make the column cost storage, and reports read them from the visit.
 */
export const EVENT_FAMILIES: readonly Family[] = ['country', 'region', 'city', 'browser', 'browser_version', 'os', 'os_version', 'device', 'screen'];

/** The bit of a family. */
export const bitOf = (f: Family) => 1 << FAMILIES.indexOf(f);

/** Every bit of `families` set. */
export const maskOf = (families: readonly Family[]) => families.reduce((m, f) => m | bitOf(f), 0);

/** `STRUCT_PACK(f := f, …)` of the families over `alias` (visitor_history keeps a visitor's last values this way). */
export const packed = (families: readonly Family[], alias = '') => `struct_pack(${families.map((f) => `${f} := ${alias}${f}`).join(', ')})`;

/** The DuckDB type of packed(families). */
export const packedType = (families: readonly Family[]) => `STRUCT(${families.map((f) => `${f} VARCHAR`).join(', ')})`;

/**
 * The INTEGER bitmask of `families` whose value (`cur(f)`) differs from the previous row's (`prev(f)`); `unknown`:
 * a condition under which every bit is set (the previous row's values are not known).
 */
export function changedBits(families: readonly Family[], cur: (f: Family) => string, prev: (f: Family) => string, unknown?: string): string {
  const bits = families.map((f) => `CASE WHEN ${cur(f)} IS DISTINCT FROM ${prev(f)} THEN ${bitOf(f)} ELSE 0 END`).join(' | ');
  return unknown ? `(CASE WHEN ${unknown} THEN ${maskOf(families)} ELSE (${bits}) END)::INTEGER` : `(${bits})::INTEGER`;
}

/*
 * Over a whole site's history (marks.ts, rebuildMarks), windows that carried every family's value per row needed
 * more than 2 GB for 10M events. Each distinct combination of values gets a number (tuple id) instead: the windows
 * carry one integer, and the bits are computed once per distinct pair of consecutive combinations.
 */

/** A SELECT of the distinct combinations of `families` in `rows`, each with its number `tid`. */
export const tuplesOf = (rows: string, families: readonly Family[]) =>
  `SELECT row_number() OVER () AS tid, * FROM (SELECT DISTINCT ${families.join(', ')} FROM (${rows}))`;

/** `rows` with their combination's number `tid` (from `tuples`, tuplesOf) in place of the families' columns. */
export const withTupleIds = (rows: string, tuples: string, families: readonly Family[]) =>
  `SELECT r.* EXCLUDE (${families.join(', ')}), t.tid FROM (${rows}) r JOIN ${tuples} t ON ${families.map((f) => `r.${f} IS NOT DISTINCT FROM t.${f}`).join(' AND ')}`;

/** (tid, prev_tid, bits) for each distinct pair of differing consecutive combinations of `x` (columns tid, prev_tid). */
export const pairBits = (x: string, tuples: string, families: readonly Family[]) =>
  `SELECT p.tid, p.prev_tid, ${changedBits(families, (f) => `a.${f}`, (f) => `b.${f}`)} AS bits
   FROM (SELECT DISTINCT tid, prev_tid FROM ${x} WHERE prev_tid <> tid) p JOIN ${tuples} a ON a.tid = p.tid JOIN ${tuples} b ON b.tid = p.prev_tid`;

/** packed(families) of the combination `alias` (a joined tuples row), NULL where none matched. */
export const packedTuple = (families: readonly Family[], alias: string) => `CASE WHEN ${alias}.tid IS NULL THEN NULL ELSE ${packed(families, `${alias}.`)} END`;
