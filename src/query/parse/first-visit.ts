// The local date of a site's first visit: where period=all starts.
import type { Runner } from '../sql/dialect.ts';
import type { ParquetManifest } from '../../storage/parquet-layout.ts';
import { tableSource } from '../../storage/sources.ts';
import { todayIn } from './calendar.ts';
import { one } from '../run.ts';
import { sql } from '../../storage/sql.ts';
import type { ScopeSite } from '../plan/scope.ts';

/** The site's first visit day in its zone, or the day it was created when it has no visit yet. */
export async function firstVisitDate(db: Runner, files: ParquetManifest, site: ScopeSite): Promise<string> {
  const r = await one(db, sql`SELECT strftime(timezone(${site.timezone}, min(start_ts)::TIMESTAMPTZ), '%Y-%m-%d') AS d
    FROM ${tableSource(files, 'visits', site.id)}`);
  return r?.d ?? todayIn(site.timezone, Date.parse(site.created_at));
}
