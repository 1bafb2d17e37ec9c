// A 404 for a goal, funnel or visitor addressed by a path id that is not in the site. The auth check calls
// it right after resolving the site, before the body is read: contract §4's order (404 before 400) holds
// even for a malformed body. (A separate macro could not: Elysia keeps only one macro's parse hook.)
import type { Database } from '../storage/database.ts';
import type { Site } from '../sites/model.ts';
import { notFound } from '../http/errors.ts';
import { goalExists } from '../goals/service.ts';
import { funnelExists } from '../funnels/service.ts';
import { visitorExists } from '../visitors/service.ts';

/** Path parameter → the owner's test that the id is in the site, and the 404 when it is not. */
const RESOURCES = [
  { param: 'goalId', exists: goalExists, message: 'Goal not found' },
  { param: 'funnelId', exists: funnelExists, message: 'Funnel not found' },
  { param: 'visitorId', exists: visitorExists, message: 'Visitor not found' },
] as const;

export async function assertResourceExists(db: Database, site: Site, params: Record<string, string>) {
  for (const r of RESOURCES) {
    const id = params[r.param];
    if (id === undefined) continue;
    if (!(await r.exists(db, site.id, id))) throw notFound(r.message);
  }
}
