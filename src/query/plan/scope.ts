// A query's scope — site, time range, filters — as the filtered visits and events relations every metric reads.
import { readRows } from './read.ts';
import { dialectOf, type Dialect } from '../sql/dialect.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import type { Range } from '../parse/period.ts';
import type { Filter, FilterNode } from '../parse/filter-types.ts';
import { conditions, isVisitLevel } from '../sql/filter-sql.ts';
import { and, ident, sql, type Fragment } from '../../storage/sql.ts';
import { treeCondition, type Lookups } from '../sql/filter-tree-sql.ts';
import { iso } from '../parse/calendar.ts';
import { countedOn, type Metric, type MetricTable } from '../sql/metrics.ts';

/** What the engine needs of a site: where its rows are, its zone and currency, and when it was created (period=all). */
export type ScopeSite = { id: string; timezone: string; currency: string; created_at: string };

/** `files`: the server's Parquet manifest, where tableSource() finds the compacted rows. */
export type Scope = { site: ScopeSite; range: Range; filters: Filter[]; files: ParquetManifest; dialect?: Dialect };

/**
 * A visit belongs to the range its start falls in, its events to the range they fall in. The cross-table
 * lookups (visits holding a matching event, events of a matching visit) reach one day past the range so a
 * visit straddling the boundary is still recognised.
 */
const SLACK_MS = 86_400_000;
const widened = (r: Range, before: boolean) => ({
  fromUtc: before ? iso(Date.parse(r.fromUtc) - SLACK_MS) : r.fromUtc,
  toUtc: before ? r.toUtc : iso(Date.parse(r.toUtc) + SLACK_MS),
});

const isTree = (f: Filter) => f.target.kind === 'tree';
const split = (filters: Filter[]) => ({
  visit: filters.filter(isVisitLevel),
  event: filters.filter((f) => !isVisitLevel(f) && !isTree(f)),
  tree: filters.flatMap((f) => (f.target.kind === 'tree' ? [f.target.node] : [])),
});

/** Nested filters (the query API's) on `on`, their other-level leaves looked up around the range. */
function trees(s: Scope, nodes: FilterNode[], on: 'visits' | 'events'): Fragment {
  const at: Lookups = {
    visits: readRows(s, 'visits', widened(s.range, true)),
    events: readRows(s, 'events', widened(s.range, false)),
    eventsInRange: readRows(s, 'events', s.range),
  };
  return and(nodes.map((n) => treeCondition(n, on, at, dialectOf(s))));
}

/** Visits that started in range and pass every filter (event-level ones: the visit holds a matching event). */
export function visitsSource(s: Scope): Fragment {
  const { visit, event, tree } = split(s.filters);
  const base = readRows(s, 'visits', s.range);
  if (!s.filters.length) return base;
  const d = dialectOf(s);
  let where = conditions(visit, d);
  if (tree.length) where = sql`${where} AND ${trees(s, tree, 'visits')}`;
  if (event.length) {
    const ev = readRows(s, 'events', widened(s.range, false));
    where = sql`${where} AND visit_id IN (SELECT visit_id FROM ${ev} WHERE ${conditions(event, d)})`;
  }
  return sql`(SELECT * FROM ${base} WHERE ${where})`;
}

/**
 * Events in range that pass every filter (visit-level ones: the event's visit matches — tested on the
 * event's own column where that is the visit's value on every event, e.g. country or browser).
 */
export function eventsSource(s: Scope, extra?: Fragment): Fragment {
  const { visit: visitLevel, event, tree } = split(s.filters);
  const direct = visitLevel.filter((f) => f.target.kind === 'column' && f.target.onEveryEvent);
  const visit = visitLevel.filter((f) => !direct.includes(f));
  const base = readRows(s, 'events', s.range);
  if (!s.filters.length && !extra) return base;
  const d = dialectOf(s);
  let where = conditions([...event, ...direct], d);
  if (tree.length) where = sql`${where} AND ${trees(s, tree, 'events')}`;
  if (visit.length) {
    const vs = readRows(s, 'visits', widened(s.range, true));
    where = sql`${where} AND visit_id IN (SELECT visit_id FROM ${vs} WHERE ${conditions(visit, d)})`;
  }
  if (extra) where = sql`${where} AND ${extra}`;
  return sql`(SELECT * FROM ${base} WHERE ${where})`;
}

/** Every zone's period and bucket boundaries are quarter hours: the grain of event_counts. */
const SLOT_MS = 15 * 60_000;

/** A registry's rows of the site in the range (`time`: its time column), or null with filters: they need the events themselves. */
function registrySource(s: Scope, table: 'event_counts' | 'prop_key_counts' | 'purchases', time: 'slot' | 'ts'): Fragment | null {
  // The registries are DuckDB's; other engines count from their events.
  if (s.filters.length || dialectOf(s).name !== 'duckdb') return null;
  return sql`(SELECT * FROM ${ident(table)} WHERE site_id = ${s.site.id} AND ${ident(time)} >= ${s.range.fromUtc}::TIMESTAMP AND ${ident(time)} < ${s.range.toUtc}::TIMESTAMP)`;
}

/**
 * The scope's pageview and event counts per 15-minute slot (time column `slot`), or null when the slots
 * cannot answer exactly: with filters, or a range that does not start and end on a quarter hour (realtime).
 */
function countsSource(s: Scope): Fragment | null {
  return slotAligned(s) ? registrySource(s, 'event_counts', 'slot') : null;
}

const slotAligned = (s: Scope) => [s.range.fromUtc, s.range.toUtc].every((t) => Date.parse(t) % SLOT_MS === 0);

/** The scope's events per property key and 15-minute slot (columns key, events), or null where they cannot answer exactly. */
export const propKeyCountsSource = (s: Scope): Fragment | null => (slotAligned(s) ? registrySource(s, 'prop_key_counts', 'slot') : null);

/** The scope's paid events from the purchases registry, or null when filters need the events themselves. */
export const purchasesSource = (s: Scope): Fragment | null => registrySource(s, 'purchases', 'ts');

/**
 * Where `metrics` of `table` are counted for the scope: the per-slot counts when every metric is one of
 * theirs and they answer exactly, else the table's own scoped relation. `time` is its time column.
 */
export function metricsSource(s: Scope, table: 'visits' | 'events', metrics: readonly Metric[]): { from: Fragment; table: MetricTable; time: string } {
  const counts = table === 'events' && metrics.every((m) => countedOn(m, 'counts')) ? countsSource(s) : null;
  if (counts) return { from: counts, table: 'counts', time: 'slot' };
  return { from: scopedTable(s, table), table, time: table === 'visits' ? 'start_ts' : 'ts' };
}

/** The scope's visits or events. */
export const scopedTable = (s: Scope, table: 'visits' | 'events'): Fragment => (table === 'visits' ? visitsSource(s) : eventsSource(s));
