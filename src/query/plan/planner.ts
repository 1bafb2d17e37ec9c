// The planner: the one place that decides which stored relations a report reads for its scope — the
// visits and events (Parquet files plus open rows), the 15-minute counts, the purchases registry, the
// engagement rollup, or events and visits flagged by their first-occurrence marks. Reports ask it for their
// sources instead of each re-deciding; a query API or another SQL dialect plugs in here.
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import { readRows } from './read.ts';
import { dialectOf, type Runner } from '../sql/dialect.ts';
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import type { Metric, MetricTable } from '../sql/metrics.ts';
import { eventsSource, metricsSource, purchasesSource, scopedTable, visitsSource, type Scope } from './scope.ts';
import { markedEvents, markedVisits, marksHold, scopeVisitors, SCOPE_VISITORS, visitorsPerBucket, type BucketStart } from './marked-sources.ts';
import { engagementByPage } from './engagement-sources.ts';
import { anyChanged, attrMarkedEvents, attrMarkedVisits, changedCount, familyOf } from './attr-marked-sources.ts';
import { valueMarkedVisits, valueMarksFilled } from './value-marked-sources.ts';
import { isValueColumn } from '../../storage/value-marks.ts';
import type { Family } from '../../storage/attr-marks.ts';
import { ordersOf } from './orders-source.ts';
import { completionsOf, type NamedGoal } from './completions-source.ts';
import { stepEventsOf } from './step-events.ts';
import type { MatchDef } from '../sql/goals-match.ts';
import type { QueryDim } from '../parse/query-dimensions.ts';
import { propIndexRows, type PropRows } from './prop-index.ts';

export type { Scope } from './scope.ts';

/** A relation to count from: its SQL, the metric registry's name for it, and its time column. */
export type Source = { from: Fragment; table: MetricTable; time: string };

/**
 * A breakdown's rows (Plan.groups). `scopeVisitors`: aggregates to add to the grouping, summed over the groups (the
 * scope's visitors, `scope_visitors`). `ifChanged`: the rows to group instead when the grouping's `changed_rows` sum
 * is over 0 (a visitor of the scope showed more than one value of the attribute).
 */
export type Groups = { from: Fragment; table: MetricTable; scopeVisitors?: Fragment; ifChanged?: Groups };

/** The decisions for one scope. The marks are asked of the database at most once, and only by a report that can use them. */
export class Plan {
  private marksHold?: Promise<boolean>;

  constructor(private readonly db: Runner, readonly scope: Scope) {}

  /** True when the first-occurrence marks answer the scope's distinct visitors exactly (unfiltered, marks not stale). */
  marks(): Promise<boolean> {
    // The marks are DuckDB's; another engine counts distinct visitors itself (ClickHouse: uniqExact).
    if (dialectOf(this.scope).name !== 'duckdb') return Promise.resolve(false);
    return (this.marksHold ??= marksHold(this.db, this.scope));
  }

  /** The scope's visits: started in range, passing every filter. */
  visits(): Fragment {
    return visitsSource(this.scope);
  }

  /** The scope's events in range passing every filter, and `extra` when given. */
  events(extra?: Fragment): Fragment {
    return eventsSource(this.scope, extra);
  }

  /** Every event in range of the scope's visits, unfiltered: filters pick the visits, every event of theirs takes part. */
  eventsOfVisits(): Fragment {
    const all = readRows(this.scope, 'events', this.scope.range);
    return this.scope.filters.length ? sql`(SELECT * FROM ${all} WHERE visit_id IN (SELECT visit_id FROM ${this.visits()}))` : all;
  }

  /** Where `metrics` of `table` are counted: the per-slot counts when they answer exactly, else the scoped table. */
  metrics(table: 'visits' | 'events', metrics: readonly Metric[]): Source {
    return metricsSource(this.scope, table, metrics);
  }

  /**
   * Where the visit metrics (visitors among them) of the whole scope or per bucket are counted in one pass: the
   * marked visits where the marks hold (visitors a sum of first_in_scope beside the other metrics), else null.
   */
  async markedVisits(): Promise<Source | null> {
    return (await this.marks()) ? { from: markedVisits(this.scope), table: 'first_visits', time: 'start_ts' } : null;
  }

  /** A query of the scope's visitors on `table` (one row, column `visitors`): a sum over the marks where they hold, else a distinct count. */
  async visitors(table: 'visits' | 'events'): Promise<Fragment> {
    return scopeVisitors(this.scope, table, await this.marks());
  }

  /**
   * `(b, visitors, …also)` per chart bucket from the visits' marks, the visit metrics `also` counted in the same
   * pass, or null where the marks do not hold (count them on the visits).
   */
  async visitorsPerBucket(bucket: (column: string) => Fragment, also: readonly Metric[] = [], bucketStart?: BucketStart): Promise<Fragment | null> {
    return (await this.marks()) ? visitorsPerBucket(this.scope, bucket, also, bucketStart) : null;
  }

  /**
   * The rows a breakdown groups by `column` of `table`. Pages, where the marks hold, come from the marked events:
   * every page's visitors and visits are sums, counted exactly in one pass that also yields the scope's
   * visitors (`scopeVisitors`, an aggregate to add to the grouping). Sources and channels, where their marks per value
   * are filled too, the same: their visitors are sums of those marks. Visits grouped in one exact pass (`onePass`:
   * the breakdown counts every group at once) carry the same aggregate where the marks hold, so the scope's
   * visitors come from that pass instead of a second read of the visits. A visit attribute with attribute-change
   * marks (plan/attr-marked-sources.ts) is counted the same way, every group in one pass. Otherwise the scoped table.
   */
  async groups(table: 'visits' | 'events', column: string, onePass = false): Promise<Groups> {
    if (table === 'events' && column === 'path' && (await this.marks())) {
      return { from: markedEvents(this.scope), table: 'marked', scopeVisitors: sql`${SCOPE_VISITORS} AS scope_visitors` };
    }
    // Sources and channels: every group's visitors a sum of its visits' marks per value (plan/value-marked-sources.ts).
    const value = table === 'visits' && isValueColumn(column) ? column : null;
    if (value && (await this.marks()) && (await valueMarksFilled(this.db, this.scope))) {
      return { from: valueMarkedVisits(this.scope, value), table: 'value_visits', scopeVisitors: sql`${SCOPE_VISITORS} AS scope_visitors` };
    }
    const family = table === 'visits' ? familyOf(column, 'visits') : null;
    if (family && (await this.marks())) {
      // No probe first: the pass over the marked visits counts the rows a changed visitor shows (changed_rows in its
      // tally); only where there are any is it run again over the visits with `changed` (ifChanged).
      return {
        from: markedVisits(this.scope), table: 'first_visits',
        scopeVisitors: sql`${SCOPE_VISITORS} AS scope_visitors, ${changedCount(this.scope, [family])} AS changed_rows`,
        ifChanged: { from: attrMarkedVisits(this.scope, [family]), table: 'attr_visits', scopeVisitors: sql`${SCOPE_VISITORS} AS scope_visitors` },
      };
    }
    if (table === 'visits' && onePass && (await this.marks())) {
      return { from: markedVisits(this.scope), table, scopeVisitors: sql`${SCOPE_VISITORS} AS scope_visitors` };
    }
    return { from: scopedTable(this.scope, table), table };
  }

  /**
   * The relation and metric table for visitors per combination of visit attributes `columns` on the visits where
   * the marks hold and every one has bits worth summing (plan/attr-marked-sources.ts); else null (count distinct).
   */
  attrVisits(columns: readonly string[]): Promise<{ from: Fragment; table: MetricTable } | null> {
    return this.attrMarked(columns, 'visits');
  }

  /**
   * The relation and metric table for visitors and visits per page and visit attributes `columns` read on the
   * events, where the marks hold and every one has bits on the events; else null (count the events distinct).
   */
  pageAttrEvents(columns: readonly string[]): Promise<{ from: Fragment; table: MetricTable } | null> {
    return this.attrMarked(columns, 'events');
  }

  /**
   * The marked rows of `table` for visitors per value of `columns`: the first-occurrence marks alone when no visitor
   * of the scope changed any of them (one cheap probe), else with each row's `changed`; null when a column has no
   * bits on `table` or the marks do not hold.
   */
  private async attrMarked(columns: readonly string[], table: 'visits' | 'events'): Promise<{ from: Fragment; table: MetricTable } | null> {
    const fs = columns.map((c) => familyOf(c, table));
    if (!fs.length || fs.some((f) => f === null) || !(await this.marks())) return null;
    const families = fs as Family[];
    const changed = await anyChanged(this.db, this.scope, families, table);
    if (table === 'visits') return changed ? { from: attrMarkedVisits(this.scope, families), table: 'attr_visits' } : { from: markedVisits(this.scope), table: 'first_visits' };
    return changed ? { from: attrMarkedEvents(this.scope, families), table: 'attr_events' } : { from: markedEvents(this.scope), table: 'marked' };
  }

  /**
   * The property index's rows in place of the scope's events for a query of one key's values or of the key list
   * counting only `need` (visitors, events), where they answer exactly (plan/prop-index.ts); else null.
   */
  propRows(dims: readonly QueryDim[], need: ReadonlySet<string>): PropRows | null {
    return propIndexRows(this.scope, dims, need);
  }

  /** The scope's paid events: the purchases registry when unfiltered, else the events that carry revenue. */
  paidEvents(): Fragment {
    return purchasesSource(this.scope) ?? this.events(frag('revenue IS NOT NULL'));
  }

  /**
   * One row per order (plan/orders-source.ts) of the scope's paid events, or of `from` (the scope's events with
   * what a query's dimensions add); `byGoal`: per order and goal_name.
   */
  orders(from?: Fragment, byGoal = false): Fragment {
    return ordersOf(this.scope, from ?? this.paidEvents(), byGoal);
  }

  /** One row per event of the scope (or of `from`) and goal it completes, the goal as goal_name. */
  completions(goals: NamedGoal[], from?: Fragment): Fragment {
    return completionsOf(from ?? this.events(), goals, dialectOf(this.scope));
  }

  /** A funnel's step events of the scope's visits, packed (plan/step-events.ts), grouped `per` visit or visitor. */
  stepEvents(steps: MatchDef[], per: 'visit' | 'visitor'): Fragment {
    return stepEventsOf(this.eventsOfVisits(), steps, per, dialectOf(this.scope));
  }

  /** `(name, time_on_page, scroll_depth)` per page: from the engagement rollup when unfiltered, else from the events. */
  engagement(column: string, names: string[] | 'all'): Fragment {
    return engagementByPage(this.scope, column, names);
  }
}

export const planFor = (db: Runner, scope: Scope) => new Plan(db, scope);

/**
 * A site's stored rows of `table`, unfiltered, over all time or a UTC `range`: profiles, timelines, completions
 * over all time, the query API's visit lookup. Reports read stored rows only through this module.
 */
export const siteRows = (files: ParquetManifest, table: 'visits' | 'events', siteId: string, range?: { fromUtc: string; toUtc: string }, dialect?: Scope['dialect']): Fragment =>
  readRows({ files, site: { id: siteId } as Scope['site'], dialect }, table, range);

/** A site's visitor profiles (the visitors table: identity and lifetime totals, one row per visitor; DuckDB's on every engine). */
export const siteProfiles = (siteId: string): Fragment => sql`(SELECT * FROM visitors WHERE site_id = ${siteId})`;
