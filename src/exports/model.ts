// The export endpoint's query (zod: validation and OpenAPI from one place).
import { z } from 'zod';
import { EXPORT_COLUMNS } from './columns.ts';

const DateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a calendar date YYYY-MM-DD');

export const ExportQuery = z.object({
  table: z.enum(['events', 'visits']).describe(`events: one row per event (${EXPORT_COLUMNS.events.map((c) => c.name).join(', ')}); visits: one row per visit (${EXPORT_COLUMNS.visits.map((c) => c.name).join(', ')})`),
  format: z.enum(['parquet', 'csv', 'ndjson']).default('csv').describe('parquet keeps types; csv is RFC 4180 with formula neutralisation; ndjson one JSON object per line'),
  from: DateText.optional().describe('first day (inclusive) in the site time zone; default: the first stored row'),
  to: DateText.optional().describe('last day (inclusive) in the site time zone; default: today'),
});
export type ExportQuery = z.infer<typeof ExportQuery>;
