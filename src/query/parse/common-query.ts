// The parameters every report takes (period, date, from, to, filters) and the scope they resolve to for a site.
import { z } from 'zod';
import type { Database } from '../../storage/database.ts';
import { duckdbEngine, type Engine, type Runner } from '../sql/dialect.ts';
import type { MetaDb } from '../../storage/meta-db.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import { PERIODS, resolvePeriod, type Range } from './period.ts';
import { firstVisitDate } from './first-visit.ts';
import { resolveFilters, type GoalLookup } from './filters.ts';
import type { Scope, ScopeSite } from '../plan/scope.ts';
import { INTERVALS } from '../sql/buckets.ts';

const DateText = z.string().describe('YYYY-MM-DD, a calendar date in the site time zone');

export const CommonQuery = z.object({
  period: z.enum(PERIODS).optional().describe('default 30d; realtime = last 30 minutes; all = since the first visit'),
  date: DateText.optional().describe('base date of the period, default today in the site time zone'),
  from: DateText.optional().describe('first day of a custom range (inclusive)'),
  to: DateText.optional().describe('last day of a custom range (inclusive)'),
  // Elysia may hand a query value that looks like JSON over already parsed; parseFilters takes either form.
  filters: z.union([z.string(), z.array(z.unknown())]).optional().describe('JSON array of {dimension, operator, value}; all must hold'),
});
export type CommonQuery = z.infer<typeof CommonQuery>;

export const IntervalParam = z.enum(INTERVALS).optional().describe('hour for one day, month for 12mo and ranges over 180 days, else day');
/** A time series' parameters: every report's, and the bucket size (the analytics charts and the goals' series). */
export const ChartsQuery = CommonQuery.extend({ interval: IntervalParam });

/**
 * What the engine reads: the database, the Parquet manifest, the goals' owner for the goal filter, the
 * metadata store (goals, funnels, annotations: `db` itself unless DATABASE_URL moved it to PostgreSQL), and the
 * engine answering analytics (DuckDB's database itself, or ClickHouse: ANALYTICS_ENGINE).
 */
export type QuerySources = {
  db: Database; meta: MetaDb; files: ParquetManifest; goals: GoalLookup; engine?: Engine;
  /** Set by pinned() (query/pinned.ts): DuckDB's reads of stored rows run in the snapshot `files` was copied with. */
  snapshot?: Runner;
};

/** What reads DuckDB's stored rows: the answer's snapshot, or the database. */
export const storedRows = (src: Pick<QuerySources, 'db' | 'snapshot'>): Runner => src.snapshot ?? src.db;

/** The engine answering the sources' analytics: DuckDB's database unless another was configured. */
export const engineOf = (src: QuerySources): Engine => src.engine ?? duckdbEngine(storedRows(src));

/** The site's scope for a request: its period (or `range`, when the endpoint fixes it) and filters resolved. */
export async function scopeFor(src: QuerySources, site: ScopeSite, q: CommonQuery, range?: Range): Promise<Scope> {
  const { db, files, goals } = src;
  const r = range ?? (await resolvePeriod(q, site.timezone, () => firstVisitDate(storedRows(src), files, site)));
  const filters = await resolveFilters(db, goals, site.id, q.filters);
  return { site, range: r, filters, files, dialect: engineOf(src).dialect };
}
