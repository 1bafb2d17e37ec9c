// A 404 for a goal, funnel or visitor addressed by a path id that is not in the site. The auth check calls
// it right after resolving the site, before the body is read: contract §4's order (404 before 400) holds
// even for a malformed body. (A separate macro could not: Elysia keeps only one macro's parse hook.)
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { getGoal } from '../goals/service.ts';
import { getFunnel } from '../funnels/service.ts';
import { assertVisitorExists } from '../visitors/service.ts';

/** Path parameter → its owner's lookup in the site, which throws the resource's 404 when the id is not there. */
const RESOURCES: { param: string; find: (ctx: Stores, siteId: string, id: string) => Promise<unknown> }[] = [
  { param: 'goalId', find: (ctx, siteId, id) => getGoal(ctx.meta, siteId, id) },
  { param: 'funnelId', find: (ctx, siteId, id) => getFunnel(ctx.meta, siteId, id) },
  { param: 'visitorId', find: (ctx, siteId, id) => assertVisitorExists(ctx.db, siteId, id) },
];

/** Goals and funnels live in the metadata store, visitor profiles with the events. */
type Stores = Pick<AppContext, 'db' | 'meta'>;

export async function assertResourceExists(ctx: Stores, site: Site, params: Record<string, string>) {
  for (const r of RESOURCES) {
    const id = params[r.param];
    if (id === undefined) continue;
    await r.find(ctx, site.id, id);
  }
}
