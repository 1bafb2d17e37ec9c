// A 404 for a goal, funnel or visitor addressed by a path id that is not in the site. The auth check calls
// it right after resolving the site, before the body is read: contract §4's order (404 before 400) holds
// even for a malformed body. (A separate macro could not: Elysia keeps only one macro's parse hook.)
import type { Database } from '../storage/database.ts';
import type { Site } from '../sites/model.ts';
import { notFound } from '../http/errors.ts';

/** Path parameter → the table its id lives in, and the 404 when it does not. */
const RESOURCES = [
  { param: 'goalId', table: 'goals', message: 'Goal not found' },
  { param: 'funnelId', table: 'funnels', message: 'Funnel not found' },
  { param: 'visitorId', table: 'visitors', message: 'Visitor not found' },
] as const;

export async function assertResourceExists(db: Database, site: Site, params: Record<string, string>) {
  for (const r of RESOURCES) {
    const id = params[r.param];
    if (id === undefined) continue;
    const hit = await db.one(`SELECT 1 AS ok FROM ${r.table} WHERE site_id = ? AND id = TRY_CAST(? AS UUID)`, [site.id, id]);
    if (!hit) throw notFound(r.message);
  }
}
