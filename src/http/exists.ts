// `exists: 'goal' | 'funnel' | 'visitor'` route option: a 404 for a path id not in the site, checked after the
// auth macro's checks and BEFORE body/query validation, so that contract §4's order (404 before 400) holds.
import { Elysia } from 'elysia';
import type { AppContext } from '../app-context.ts';
import { notFound } from './errors.ts';

const RESOURCES = {
  goal: { table: 'goals', param: 'goalId', message: 'Goal not found' },
  funnel: { table: 'funnels', param: 'funnelId', message: 'Funnel not found' },
  visitor: { table: 'visitors', param: 'visitorId', message: 'Visitor not found' },
} as const;
export type Resource = keyof typeof RESOURCES;

/** Use after the auth plugin and list `exists` after `scope` in the route options: macro hooks run in that order. */
export const existsPlugin = (ctx: AppContext) =>
  new Elysia().macro({
    exists: (kind: Resource) => ({
      async transform({ params }: any) {
        const r = RESOURCES[kind];
        const site = ctx.sites.inOrg(params.orgId, params.siteId);
        if (!site) return; // the auth macro has answered already
        const hit = await ctx.db.one(`SELECT 1 AS ok FROM ${r.table} WHERE site_id = ? AND id = TRY_CAST(? AS UUID)`, [site.id, params[r.param]]);
        if (!hit) throw notFound(r.message);
      },
    }),
  });
