// Analytics requests → query engine calls: resolve the period and filters for the site, then run one query.
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { tableSource } from '../storage/sources.ts';
import { realtimeRange, resolvePeriod } from '../query/period.ts';
import { resolveFilters } from '../query/filters.ts';
import type { Scope } from '../query/scope.ts';
import { stats as statsQuery } from '../query/aggregate.ts';
import { chart } from '../query/charts.ts';
import { breakdown as breakdownQuery } from '../query/breakdown.ts';
import { realtime as realtimeQuery } from '../query/realtime.ts';
import { revenue as revenueQuery } from '../query/revenue.ts';
import { defaultInterval, type Interval } from '../query/buckets.ts';
import { BREAKDOWNS, type BreakdownEndpoint } from '../query/dimensions.ts';
import { todayIn } from '../query/calendar.ts';
import { one } from '../query/run.ts';
import { sql } from '../query/sql.ts';
import type { Comparison } from '../query/period.ts';
import { listAnnotations } from '../annotations/service.ts';
import type { BreakdownQuery, CommonQuery } from './model.ts';

/** Local date of the site's first visit (period=all), or of its creation when it has none. */
async function firstDate(ctx: AppContext, site: Site): Promise<string | null> {
  const r = await one(ctx.db, sql`SELECT strftime(timezone(${site.timezone}, min(start_ts)::TIMESTAMPTZ), '%Y-%m-%d') AS d
    FROM ${tableSource(ctx.parquet, 'visits', site.id)}`);
  return r?.d ?? todayIn(site.timezone, Date.parse(site.created_at));
}

export async function scopeFor(ctx: AppContext, site: Site, q: CommonQuery): Promise<Scope> {
  const range = await resolvePeriod(q, site.timezone, () => firstDate(ctx, site));
  const filters = await resolveFilters(ctx.db, site.id, q.filters);
  return { site, range, filters, files: ctx.parquet };
}

export async function stats(ctx: AppContext, site: Site, q: CommonQuery & { compare?: Comparison }) {
  return statsQuery(ctx.db, await scopeFor(ctx, site, q), q.compare ?? 'previous_period');
}

export async function realtime(ctx: AppContext, site: Site, q: CommonQuery) {
  const filters = await resolveFilters(ctx.db, site.id, q.filters);
  return realtimeQuery(ctx.db, { site, range: realtimeRange(site.timezone), filters, files: ctx.parquet });
}

/** The series with the range's annotations beside the points (read as the annotations list reads them). */
export async function charts(ctx: AppContext, site: Site, q: CommonQuery & { interval?: Interval }) {
  const scope = await scopeFor(ctx, site, q);
  const [series, notes] = await Promise.all([
    chart(ctx.db, scope, q.interval ?? defaultInterval(scope.range)),
    listAnnotations(ctx.db, site.id, { from: scope.range.from, to: scope.range.to }),
  ]);
  return { ...series, annotations: notes.map(({ id, date, text }) => ({ id, date, text })) };
}

export async function breakdown(ctx: AppContext, site: Site, endpoint: BreakdownEndpoint, q: BreakdownQuery) {
  const scope = await scopeFor(ctx, site, q);
  return breakdownQuery(ctx.db, scope, q.dimension ?? BREAKDOWNS[endpoint][0], { limit: q.limit, page: q.page }, endpoint === 'pages');
}

export async function revenue(ctx: AppContext, site: Site, q: CommonQuery & { compare?: Comparison; interval?: Interval }) {
  const scope = await scopeFor(ctx, site, q);
  return revenueQuery(ctx.db, scope, q.compare ?? 'previous_period', q.interval ?? defaultInterval(scope.range));
}
