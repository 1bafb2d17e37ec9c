// Top-line metrics for a scope (contract §8 stats): visit metrics from visits, event counts from events
// (or their per-slot counts).
import type { Runner } from '../sql/dialect.ts';
import { planFor, type Plan, type Scope } from '../plan/planner.ts';
import { change, finish, selectMetrics, viewsPerVisit, type Metric } from '../sql/metrics.ts';
import { comparisonRange, rangeEcho, type Comparison } from '../parse/period.ts';
import { one } from '../run.ts';
import { frag, join, sql } from '../../storage/sql.ts';

const VISIT_METRICS = ['visitors', 'visits', 'bounce_rate', 'visit_duration'] as const satisfies Metric[];
const EVENT_METRICS = ['pageviews', 'events'] as const satisfies Metric[];

export type Totals = {
  visitors: number; visits: number; pageviews: number; views_per_visit: number;
  bounce_rate: number; visit_duration: number; events: number;
};

/** `metrics` of `table` over the scope, in one row. */
function count(plan: Plan, table: 'visits' | 'events', metrics: readonly Metric[]) {
  const src = plan.metrics(table, metrics);
  return sql`SELECT ${selectMetrics(metrics, src.table)} FROM ${src.from}`;
}

export async function totals(db: Runner, scope: Scope): Promise<Totals> {
  // Where the marks hold, visitors are a sum over the visits' marks counted in the same pass as the other visit
  // metrics (one read of the visits, not two: 12 months of the 10M store ~125 → ~70 ms of CPU).
  const plan = planFor(db, scope);
  const marked = await plan.markedVisits();
  const rows = [
    marked ? sql`SELECT ${selectMetrics(VISIT_METRICS, marked.table)} FROM ${marked.from}` : count(plan, 'visits', VISIT_METRICS),
    count(plan, 'events', EVENT_METRICS),
  ];
  // The one-row parts (their columns named apart) as one statement: each statement costs ~1–2 ms in the server
  // before it reads anything, a fixed cost every dashboard view pays per part and period.
  const all = await one(db, sql`SELECT * FROM ${join(rows.map((r, i) => sql`(${r}) AS ${frag(`t${i}`)}`), ' CROSS JOIN ')}`);
  const vm = finish(VISIT_METRICS, all ?? {});
  const em = finish(EVENT_METRICS, all ?? {});
  return {
    visitors: vm.visitors!, visits: vm.visits!, pageviews: em.pageviews!,
    views_per_visit: viewsPerVisit(em.pageviews!, vm.visits!),
    bounce_rate: vm.bounce_rate!, visit_duration: vm.visit_duration!, events: em.events!,
  };
}

export function changes<T extends Record<string, number>>(current: T, previous: T | null) {
  const out: Record<string, number | null> = {};
  for (const k of Object.keys(current)) out[k] = previous ? change(current[k]!, previous[k]!) : null;
  return out as Record<keyof T, number | null>;
}

/** `{range, metrics, previous, change}`; previous is null with compare=none. */
export async function stats(db: Runner, scope: Scope, compare: Comparison) {
  const prevRange = comparisonRange(scope.range, compare);
  const [metrics, previous] = await Promise.all([
    totals(db, scope),
    prevRange ? totals(db, { ...scope, range: prevRange }) : Promise.resolve(null),
  ]);
  return { range: rangeEcho(scope.range), metrics, previous, change: changes(metrics, previous) };
}
