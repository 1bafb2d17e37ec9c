// Analytics requests → query engine calls: resolve the period and filters for the site, then run one query.
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { realtimeRange, type Range } from '../query/parse/period.ts';
import { scopeFor as scopeOf, type CommonQuery } from '../query/parse/common-query.ts';
import type { Scope } from '../query/plan/scope.ts';
import { stats as statsQuery } from '../query/reports/aggregate.ts';
import { chart } from '../query/reports/charts.ts';
import { breakdown as breakdownQuery } from '../query/reports/breakdown.ts';
import { realtime as realtimeQuery } from '../query/reports/realtime.ts';
import { revenue as revenueQuery } from '../query/reports/revenue.ts';
import { defaultInterval, type Interval } from '../query/sql/buckets.ts';
import { BREAKDOWNS, type BreakdownEndpoint } from '../query/parse/dimensions.ts';
import type { Comparison } from '../query/parse/period.ts';
import { listAnnotations } from '../annotations/service.ts';
import type { BreakdownQuery } from './model.ts';

/** The site's scope for a request: its period (or `range`, when the endpoint fixes it) and filters resolved. */
const scopeFor = (ctx: AppContext, site: Site, q: CommonQuery, range?: Range): Promise<Scope> => scopeOf(ctx.query, site, q, range);

export async function stats(ctx: AppContext, site: Site, q: CommonQuery & { compare?: Comparison }) {
  return statsQuery(ctx.db, await scopeFor(ctx, site, q), q.compare ?? 'previous_period');
}

export async function realtime(ctx: AppContext, site: Site, q: CommonQuery) {
  return realtimeQuery(ctx.db, await scopeFor(ctx, site, q, realtimeRange(site.timezone)));
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
