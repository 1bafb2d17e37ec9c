// Analytics requests → query engine calls: resolve the period and filters for the site, then run one query.
import type { Site } from '../sites/model.ts';
import { realtimeRange } from '../query/parse/period.ts';
import { engineOf, scopeFor, type CommonQuery, type QuerySources } from '../query/parse/common-query.ts';
import { rankedReport, revenueReport, seriesReport, totalsReport } from '../query/reports/query-presets.ts';
import { breakdownPreset, revenuePreset, seriesPreset, statsPreset } from '../query/parse/presets.ts';
import { realtime as realtimeQuery } from '../query/reports/realtime.ts';
import { defaultInterval, type Interval } from '../query/sql/buckets.ts';
import { BREAKDOWNS, type BreakdownEndpoint } from '../query/parse/dimensions.ts';
import type { Comparison } from '../query/parse/period.ts';
import { listAnnotations } from '../annotations/service.ts';
import type { BreakdownQuery } from './model.ts';

export async function stats(src: QuerySources, site: Site, q: CommonQuery & { compare?: Comparison }) {
  const { filters, ...scope } = await scopeFor(src, site, q);
  return totalsReport(engineOf(src), scope, statsPreset(filters, q.compare ?? 'previous_period'));
}

export async function realtime(src: QuerySources, site: Site, q: CommonQuery) {
  return realtimeQuery(engineOf(src), await scopeFor(src, site, q, realtimeRange(site.timezone)));
}

/** The series with the range's annotations beside the points (read as the annotations list reads them). */
export async function charts(src: QuerySources, site: Site, q: CommonQuery & { interval?: Interval }) {
  const { filters, ...scope } = await scopeFor(src, site, q);
  const [series, notes] = await Promise.all([
    seriesReport(engineOf(src), scope, seriesPreset(filters, q.interval ?? defaultInterval(scope.range))),
    listAnnotations(src.meta, site.id, { from: scope.range.from, to: scope.range.to }),
  ]);
  return { ...series, annotations: notes.map(({ id, date, text }) => ({ id, date, text })) };
}

export async function breakdown(src: QuerySources, site: Site, endpoint: BreakdownEndpoint, q: BreakdownQuery) {
  const { filters, ...scope } = await scopeFor(src, site, q);
  // A preset of the query API: the same stages and ranked breakdown POST /query runs for this shape.
  return rankedReport(engineOf(src), scope, breakdownPreset(q.dimension ?? BREAKDOWNS[endpoint][0], filters, { limit: q.limit, page: q.page }, endpoint === 'pages'));
}

export async function revenue(src: QuerySources, site: Site, q: CommonQuery & { compare?: Comparison; interval?: Interval }) {
  const { filters, ...scope } = await scopeFor(src, site, q);
  return revenueReport(engineOf(src), scope, revenuePreset(filters, q.interval ?? defaultInterval(scope.range)), q.compare ?? 'previous_period');
}
