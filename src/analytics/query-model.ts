// The POST /query answer as a zod schema (OpenAPI), and the body's three worked examples.
import { z } from 'zod';

const Range = z.object({ from: z.string(), to: z.string(), timezone: z.string() });
const Row = z.object({
  dimensions: z.array(z.string()).describe('one value per requested dimension, in order; a missing value is "(none)" (source: "Direct / None")'),
  metrics: z.array(z.number().nullable()).describe('one value per requested metric, in order; time_on_page and scroll_depth are null where none was reported'),
});

export const QueryAnswerSchema = z.object({
  results: z.array(Row),
  totals: z.record(z.string(), z.number().nullable()).optional().describe('include.totals: each metric over the whole query, without dimensions'),
  comparison: z.object({
    range: Range,
    totals: z.record(z.string(), z.number().nullable()).optional(),
    results: z.array(Row.extend({ change: z.array(z.number().nullable()).describe('percent change per metric, null where the previous value is 0') })),
  }).optional().describe('include.comparison: for each row, the same dimension values (the time bucket at the same position) over the comparison range'),
  meta: z.object({
    range: Range,
    total_rows: z.number().int().describe('rows before pagination'),
    time_labels: z.array(z.string()).optional().describe('include.time_labels: every bucket of the range'),
  }),
  query: z.record(z.string(), z.unknown()).describe('the query as understood, defaults filled in'),
});

export const QUERY_EXAMPLES = {
  sources_by_country: {
    summary: 'Two dimensions, three metrics, 12 months, paged',
    value: { metrics: ['visitors', 'visits', 'bounce_rate'], date_range: '12mo', dimensions: ['visit:source', 'visit:country'], order_by: [['visitors', 'desc']], pagination: { limit: 50, offset: 0 } },
  },
  daily_with_filters: {
    summary: 'A daily series with nested filters, totals and the previous period',
    value: {
      metrics: ['visitors', 'pageviews', 'revenue'], date_range: '30d', dimensions: ['time:day'],
      filters: ['and', [['is', 'visit:country', ['DE', 'AT']], ['not', ['contains', 'event:page', ['/admin']]]]],
      include: { totals: true, comparison: 'previous_period', time_labels: true },
    },
  },
  property_breakdown: {
    summary: 'A custom property breakdown of visitors who signed up',
    value: { metrics: ['visitors', 'events'], date_range: ['2025-01-01', '2025-03-31'], dimensions: ['event:props:plan'], filters: [['has_done', ['is', 'event:name', ['Signup']]]] },
  },
};
