// Exact top-K of a breakdown. Usually without computing distinct counts for every group: a group's row
// count bounds its visitors from above, so only groups whose count can still reach the K-th best need the
// expensive exact pass (Zipf-shaped data: a few dozen of ~2,000 pages). Dimensions marked `few` (see
// dimensions.ts) count every group in one exact pass instead.
import type { Row } from '../../storage/database.ts';
import { DUCKDB, type Dialect, type Runner } from '../sql/dialect.ts';
import { selectMetrics, type Metric, type MetricTable } from '../sql/metrics.ts';
import { rows } from '../run.ts';
import { frag, ident, oneOf, sql, type Fragment } from '../../storage/sql.ts';

/** `tally`: the `tally` aggregates of rankGroups summed over every group. */
export type Ranked = { rows: Row[]; groups: number; tally?: Row };

/** visitors DESC, pageviews DESC, name ASC with the missing value last — the breakdown order. */
export function order(a: Row, b: Row) {
  return b.visitors - a.visitors || b.pageviews - a.pageviews || (a.name === null ? 1 : b.name === null ? -1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** Exact metrics of the named groups (null = the missing-value group), or of every group when `names` is 'all'. */
function exactFor(src: Fragment, column: string, names: (string | null)[] | 'all', metrics: readonly Metric[], table: MetricTable, tally?: Fragment, inList: Dialect['inList'] = DUCKDB.inList): Fragment {
  const col = ident(column);
  let where = sql`TRUE`;
  if (names !== 'all') {
    const values = names.filter((n): n is string => n !== null);
    where = oneOf(col, values, values.length < names.length, inList);
  }
  return sql`SELECT ${col} AS name, ${selectMetrics(metrics, table)}${tally ? sql`, ${tally}` : frag('')} FROM ${src} WHERE ${where} GROUP BY ALL`;
}

/**
 * Rows [offset, offset + limit) of `src` grouped by `column`, in breakdown order, with exact metrics
 * (which must include visitors and pageviews), and the number of groups. `few`: the column has a small
 * value set, or a few values carry nearly every row, so every group is counted exactly at once (one query
 * instead of sizing, then counting). `tally` (with `few` only): more aggregates per group, summed over
 * every group into Ranked.tally.
 */
export async function rankGroups(db: Runner, src: Fragment, column: string, metrics: readonly Metric[], table: MetricTable, offset: number, limit: number, few = false, tally?: Fragment,
  inList: Dialect['inList'] = DUCKDB.inList): Promise<Ranked> {
  if (few) {
    const all = (await rows(db, exactFor(src, column, 'all', metrics, table, tally, inList))).sort(order);
    const sums: Row = {};
    if (tally) for (const r of all) for (const k of Object.keys(r)) if (k !== 'name' && !metrics.includes(k as Metric)) sums[k] = (sums[k] ?? 0) + Number(r[k] ?? 0);
    return { rows: all.slice(offset, offset + limit), groups: all.length, ...(tally ? { tally: sums } : {}) };
  }
  const sizes = await rows(db, sql`SELECT ${ident(column)} AS name, count(*) AS n FROM ${src} GROUP BY ALL ORDER BY n DESC`);
  const k = offset + limit;
  const exact: Row[] = [];
  let seen = Math.min(sizes.length, Math.max(2 * k, 20));
  const fetch = async (from: number, to: number) => {
    const names = sizes.slice(from, to).map((s) => s.name as string | null);
    if (names.length) exact.push(...(await rows(db, exactFor(src, column, from === 0 && to >= sizes.length ? 'all' : names, metrics, table, undefined, inList))));
  };
  await fetch(0, seen);
  exact.sort(order);
  if (seen < sizes.length) {
    // Every group that could still tie or beat the k-th best must be counted exactly.
    const kth = exact.length >= k ? Number(exact[k - 1]!.visitors) : 0;
    let until = seen;
    while (until < sizes.length && Number(sizes[until]!.n) >= kth) until++;
    await fetch(seen, until);
    seen = until;
    exact.sort(order);
  }
  return { rows: exact.slice(offset, k), groups: sizes.length };
}
