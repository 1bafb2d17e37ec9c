// A 404 for a goal, funnel or visitor addressed by a path id that is not in the site. The auth check calls
// it right after resolving the site, before the body is read: contract §4's order (404 before 400) holds
// even for a malformed body. (A separate macro could not: Elysia keeps only one macro's parse hook.)
import type { Database } from '../storage/database.ts';
import type { Site } from '../sites/model.ts';
import { getGoal } from '../goals/service.ts';
import { getFunnel } from '../funnels/service.ts';
import { assertVisitorExists } from '../visitors/service.ts';

/** Path parameter → its owner's lookup in the site, which throws the resource's 404 when the id is not there. */
const RESOURCES = [
  { param: 'goalId', find: getGoal },
  { param: 'funnelId', find: getFunnel },
  { param: 'visitorId', find: assertVisitorExists },
] as const;

export async function assertResourceExists(db: Database, site: Site, params: Record<string, string>) {
  for (const r of RESOURCES) {
    const id = params[r.param];
    if (id === undefined) continue;
    await r.find(db, site.id, id);
  }
}
