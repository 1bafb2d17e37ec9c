// The body of POST /query (the analysts' query API, after Plausible's Stats API v2) as a zod schema: it
// documents the body in OpenAPI; parse/query-parse.ts checks each part itself so a 400 names its path.
import { z } from 'zod';
import { OPERATORS } from './operators.ts';

export const API_METRICS = [
  'visitors', 'visits', 'pageviews', 'events', 'views_per_visit', 'bounce_rate', 'visit_duration', 'percentage',
  'revenue', 'orders', 'average_order_value', 'conversions', 'conversion_rate', 'time_on_page', 'scroll_depth', 'exit_rate',
] as const;
export type ApiMetric = (typeof API_METRICS)[number];

export const VISIT_DIMENSIONS = [
  'entry_page', 'exit_page', 'source', 'referrer', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content',
  'country', 'region', 'city', 'device', 'browser', 'browser_version', 'os', 'os_version', 'screen',
] as const;
export const EVENT_DIMENSIONS = ['page', 'hostname', 'name', 'type', 'goal'] as const;
export const TIME_DIMENSIONS = ['hour', 'day', 'week', 'month'] as const;
export const DATE_RANGES = ['day', '7d', '30d', 'month', '12mo', 'year', 'all', 'realtime'] as const;

const Dimension = z.string().describe('visit:<name>, event:page|hostname|name|type|goal, event:props:<key> (a custom property\'s values), event:props (the property keys the events carry: an event counts under each of its keys; a dimension only, not a filter), or time:hour|day|week|month');
const Leaf = z.tuple([z.enum(OPERATORS), Dimension, z.array(z.string()).min(1)]).describe('[operator, dimension, values]: any value may match');
const Filter: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    Leaf,
    z.tuple([z.enum(['and', 'or']), z.array(Filter).min(1)]).describe('all / any of the filters'),
    z.tuple([z.literal('not'), Filter]).describe('the filter does not hold'),
    z.tuple([z.enum(['has_done', 'has_not_done']), Filter]).describe('the visitor did (or never did) a matching event in the range; event: dimensions only'),
  ]),
);

export const QueryBody = z.object({
  metrics: z.array(z.enum(API_METRICS)).min(1).max(12)
    .describe('conversions and conversion_rate need a goal filter or an event:goal dimension; time_on_page and scroll_depth a page dimension (event:page or :hostname, visit:entry_page or :exit_page); exit_rate event:page'),
  date_range: z.union([z.enum(DATE_RANGES), z.tuple([z.string(), z.string()])])
    .describe('a period, or ["YYYY-MM-DD", "YYYY-MM-DD"] (inclusive), in the site time zone; year = the calendar year of date'),
  date: z.string().optional().describe('base date YYYY-MM-DD of the period, default today in the site time zone'),
  dimensions: z.array(Dimension).max(3).optional().describe('0–3 dimensions; every row is one combination of their values'),
  filters: z.union([Filter, z.array(Filter)]).optional().describe('a list of filters (all must hold), or one filter: a leaf, or ["and"|"or", [filters]], ["not", filter], ["has_done", filter]; visit: dimensions keep visits, event: dimensions keep events (and the visits holding one)'),
  order_by: z.array(z.tuple([z.string(), z.enum(['asc', 'desc'])])).optional()
    .describe('[[metric or dimension, asc|desc], …]; default: time ascending, else the first metric descending; ties by dimensions ascending'),
  include: z.object({
    totals: z.boolean().optional().describe('metrics over the whole query, without dimensions'),
    comparison: z.enum(['previous_period', 'year_over_year']).optional().describe('the same query over the comparison range, row for row'),
    time_labels: z.boolean().optional().describe('every time bucket of the range: listed in meta.time_labels, and present as a row (zero) when time is the only dimension'),
  }).optional(),
  pagination: z.object({ limit: z.number().int().min(1).max(10_000).optional(), offset: z.number().int().min(0).optional() }).optional()
    .describe('limit 1–10,000 (default 10,000), offset ≥ 0'),
}).strict();
export type QueryBody = z.infer<typeof QueryBody>;
