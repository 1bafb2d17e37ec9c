// /api/v1/organizations/{orgId}/sites/{siteId}/analytics/*: thin routes over the query engine (scope analytics:read).
import { Elysia } from 'elysia';
import { csvAnswers } from '../http/csv-response.ts';
import type { ZodType } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { authPlugin } from '../access/auth.ts';
import { envelope, ok, reportErrorResponses } from '../http/envelope.ts';
import { BREAKDOWNS, type BreakdownEndpoint } from '../query/parse/dimensions.ts';
import {
  BreakdownSchema, breakdownQuery, ChartSchema, RealtimeSchema, RevenueQuery, RevenueSchema, StatsQuery, StatsSchema,
} from './model.ts';
import * as analytics from './service.ts';
import { ChartsQuery, CommonQuery } from '../query/parse/common-query.ts';
import { pinned } from '../query/pinned.ts';

const BREAKDOWN_DOCS: Record<BreakdownEndpoint, string> = {
  pages: 'Pages: rows add time_on_page and scroll_depth (the reports about the page, sent on the next pageview of its visit and counted in the range they arrive in); bounce_rate and visit_duration of a page are those of the visits entering on it',
  sources: 'Traffic sources (a missing source is "Direct / None"), referrers and UTM parameters, by the first event of each visit',
  channels: 'Channels: Direct, Organic Search, Paid Search, Organic Social, Paid Social, Email, Affiliates, Display, Video, Referral…',
  devices: 'Device types, browsers, operating systems and screen sizes',
  locations: 'Countries (ISO 3166-1 alpha-2, label = English name), regions and cities',
};

/** The options every analytics route shares: scope, query schema, response schema, summary. */
const options = <Q, R extends ZodType>(query: Q, response: R, summary: string) =>
  ({ scope: 'analytics:read' as const, query, response: { 200: envelope(response), ...reportErrorResponses }, detail: { summary } });

export const analyticsRoutes = (ctx: AppContext, auth: ReturnType<typeof authPlugin>) => {
  let app = new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/analytics', tags: ['Analytics'] })
    .use(auth)
    .use(csvAnswers())
    .get('/stats', async ({ access, query }) => ok(await pinned(ctx.query, (src) => analytics.stats(src, access.site!, query))),
      options(StatsQuery, StatsSchema, 'Top-line metrics with the previous period (or a year back) and the percent change'))
    .get('/realtime', async ({ access, query }) => ok(await pinned(ctx.query, (src) => analytics.realtime(src, access.site!, query))),
      options(CommonQuery, RealtimeSchema, 'Visitors, pageviews and the top 10 pages of the last 30 minutes (period is ignored)'))
    .get('/charts', async ({ access, query }) => ok(await pinned(ctx.query, (src) => analytics.charts(src, access.site!, query))),
      options(ChartsQuery, ChartSchema, 'Time series in the site time zone, every bucket present, with annotations'))
    .get('/revenue', async ({ access, query }) => ok(await pinned(ctx.query, (src) => analytics.revenue(src, access.site!, query))),
      options(RevenueQuery, RevenueSchema, 'Revenue in the site currency (no FX conversion; other currencies in by_currency); an order_id counts once'));
  for (const endpoint of Object.keys(BREAKDOWNS) as BreakdownEndpoint[]) {
    app = app.get(`/${endpoint}`, async ({ access, query }) => ok(await pinned(ctx.query, (src) => analytics.breakdown(src, access.site!, endpoint, query))),
      options(breakdownQuery(endpoint), BreakdownSchema, BREAKDOWN_DOCS[endpoint])) as any;
  }
  return app;
};
