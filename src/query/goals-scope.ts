// Common query parameters (contract §7) → a Scope {site, range, filters} for goal and funnel reports.
import { z } from 'zod';
import type { Database } from '../storage/database.ts';
import type { Site } from '../sites/model.ts';
import { tableSource } from '../storage/sources.ts';
import { resolvePeriod } from './period.ts';
import { resolveFilters } from './filters.ts';
import { INTERVALS } from './goals-interval.ts';
import type { Scope } from './scope.ts';

export const PeriodQuery = z.object({
  period: z.string().optional().describe('day, 7d, 30d (default), month, 12mo, custom, realtime or all'),
  date: z.string().optional().describe('Base date YYYY-MM-DD in the site time zone (default today)'),
  from: z.string().optional().describe('First day YYYY-MM-DD, with period=custom'),
  to: z.string().optional().describe('Last day YYYY-MM-DD (inclusive), with period=custom'),
  // Elysia hands over a query value that looks like JSON already parsed; the filter parser wants the text.
  filters: z.preprocess((v) => (v === undefined || typeof v === 'string' ? v : JSON.stringify(v)), z.string().optional()).describe('JSON array of {dimension, operator, value}; all must hold'),
});
export type PeriodQueryInput = z.infer<typeof PeriodQuery>;
/** The echoed range of every report (contract §7). */
export const RangeSchema = z.object({ from: z.string(), to: z.string(), timezone: z.string() });

export const ChartQuery = PeriodQuery.extend({ interval: z.enum(INTERVALS).optional() });

/** The local date of the site's first stored visit, for period=all. */
async function firstVisitDate(db: Database, site: Site): Promise<string | null> {
  const src = tableSource('visits', site.id);
  const row = await db.one(`SELECT strftime(timezone(?, min(start_ts)::TIMESTAMPTZ), '%Y-%m-%d') AS d FROM ${src.sql} v`, [site.timezone, ...src.params]);
  return row?.d ?? null;
}

export async function resolveScope(db: Database, site: Site, q: PeriodQueryInput): Promise<Scope> {
  const range = await resolvePeriod(q, site.timezone, () => firstVisitDate(db, site));
  const filters = await resolveFilters(db, site.id, q.filters);
  return { site, range, filters };
}

/** True when the caller gave no period parameter at all (lists then default to all time). */
export const noPeriodGiven = (q: PeriodQueryInput) => [q.period, q.date, q.from, q.to, q.filters].every((v) => v === undefined);
