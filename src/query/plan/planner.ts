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
import { markedEvents, marksHold, scopeVisitors, SCOPE_VISITORS, visitorsPerBucket } from './marked-sources.ts';
import { engagementByPage } from './engagement-sources.ts';

export type { Scope } from './scope.ts';

/** A relation to count from: its SQL, the metric registry's name for it, and its time column. */
export type Source = { from: Fragment; table: MetricTable; time: string };

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

  /** A query of the scope's visitors on `table` (one row, column `visitors`): a sum over the marks where they hold, else a distinct count. */
  async visitors(table: 'visits' | 'events'): Promise<Fragment> {
    return scopeVisitors(this.scope, table, await this.marks());
  }

  /** `(b, visitors)` per chart bucket from the visits' marks, or null where the marks do not hold (count them on the visits). */
  async visitorsPerBucket(bucket: (column: string) => Fragment): Promise<Fragment | null> {
    return (await this.marks()) ? visitorsPerBucket(this.scope, bucket) : null;
  }

  /**
   * The rows a breakdown groups by `column` of `table`. Pages, where the marks hold, come from the marked events:
   * every page's visitors and visits are sums, counted exactly in one pass that also yields the scope's
   * visitors (`scopeVisitors`, an aggregate to add to the grouping). Otherwise the scoped table.
   */
  async groups(table: 'visits' | 'events', column: string): Promise<{ from: Fragment; table: MetricTable; scopeVisitors?: Fragment }> {
    if (table === 'events' && column === 'path' && (await this.marks())) {
      return { from: markedEvents(this.scope), table: 'marked', scopeVisitors: sql`${SCOPE_VISITORS} AS scope_visitors` };
    }
    return { from: scopedTable(this.scope, table), table };
  }

  /** The scope's paid events: the purchases registry when unfiltered, else the events that carry revenue. */
  paidEvents(): Fragment {
    return purchasesSource(this.scope) ?? this.events(frag('revenue IS NOT NULL'));
  }

  /**
   * The order ids paid before the range (an order counts at its first occurrence only): DuckDB's purchases
   * registry, or on another engine its events that carried revenue.
   */
  earlierOrders(): Fragment {
    const s = this.scope;
    if (dialectOf(s).name === 'duckdb') {
      return sql`SELECT order_id FROM purchases WHERE site_id = ${s.site.id} AND ts < ${s.range.fromUtc}::TIMESTAMP AND order_id IS NOT NULL`;
    }
    const before = readRows(s, 'events', { fromUtc: '1970-01-01T00:00:00.000Z', toUtc: s.range.fromUtc });
    return sql`SELECT order_id FROM ${before} WHERE revenue IS NOT NULL AND order_id IS NOT NULL`;
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
