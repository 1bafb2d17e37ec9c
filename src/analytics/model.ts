// Query and response schemas of the analytics endpoints (contract §7, §8); they also generate the OpenAPI document.
import { z } from 'zod';
import { COMPARISONS } from '../query/parse/period.ts';
import { CommonQuery, IntervalParam } from '../query/parse/common-query.ts';
import { INTERVALS } from '../query/sql/buckets.ts';
import { BREAKDOWNS, type BreakdownEndpoint } from '../query/parse/dimensions.ts';
import { PaginationSchema } from '../http/envelope.ts';

const Compare = z.enum(COMPARISONS).optional().describe('previous_period (default), year_over_year or none');

export const StatsQuery = CommonQuery.extend({ compare: Compare });
export const RevenueQuery = CommonQuery.extend({ compare: Compare, interval: IntervalParam });

const Limit = z.coerce.number().int().min(1).max(1000).default(10);
const PageNumber = z.coerce.number().int().min(1).default(1);

export const breakdownQuery = (endpoint: BreakdownEndpoint) =>
  CommonQuery.extend({
    dimension: z.enum(BREAKDOWNS[endpoint]).optional().describe(`default ${BREAKDOWNS[endpoint][0]}`),
    limit: Limit,
    page: PageNumber,
  });
export type BreakdownQuery = CommonQuery & { dimension?: string; limit: number; page: number };

const RangeSchema = z.object({ from: z.string(), to: z.string(), timezone: z.string() });
const Num = z.number();
const Change = z.number().nullable();

const Totals = z.object({
  visitors: Num, visits: Num, pageviews: Num, views_per_visit: Num, bounce_rate: Num, visit_duration: Num, events: Num,
});
export const StatsSchema = z.object({
  range: RangeSchema,
  metrics: Totals,
  previous: Totals.nullable(),
  change: z.object({
    visitors: Change, visits: Change, pageviews: Change, views_per_visit: Change, bounce_rate: Change, visit_duration: Change, events: Change,
  }),
});

export const RealtimeSchema = z.object({
  visitors: Num,
  pageviews: Num,
  pages: z.array(z.object({ name: z.string(), visitors: Num })),
});

export const ChartSchema = z.object({
  range: RangeSchema,
  interval: z.enum(INTERVALS),
  points: z.array(z.object({ date: z.string(), visitors: Num, visits: Num, pageviews: Num, bounce_rate: Num, visit_duration: Num })),
  annotations: z.array(z.object({ id: z.string(), date: z.string(), text: z.string() })),
});

export const BreakdownSchema = z.object({
  range: RangeSchema,
  dimension: z.string(),
  results: z.array(z.object({
    name: z.string(),
    label: z.string().optional(),
    visitors: Num, visits: Num, pageviews: Num, bounce_rate: Num, visit_duration: Num, percentage: Num,
    time_on_page: Num.nullable().optional().describe('pages only: mean reported seconds, null if none reported'),
    scroll_depth: Num.nullable().optional().describe('pages only: mean reported scroll depth 0–100, null if none reported'),
  })),
  pagination: PaginationSchema,
});

const RevenueTotals = z.object({ revenue: Num, orders: Num, average_order_value: Num, purchasers: Num, conversion_rate: Num });
export const RevenueSchema = z.object({
  range: RangeSchema,
  currency: z.string(),
  metrics: RevenueTotals,
  previous: RevenueTotals.nullable(),
  change: z.object({ revenue: Change, orders: Change, average_order_value: Change, purchasers: Change, conversion_rate: Change }),
  interval: z.enum(INTERVALS),
  points: z.array(z.object({ date: z.string(), revenue: Num, orders: Num })),
  by_currency: z.array(z.object({ currency: z.string(), revenue: Num, orders: Num })),
});
