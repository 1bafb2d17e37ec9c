// The goals feature as a server module: routes plus site-delete cleanup.
import type { Module } from '../module.ts';
import { goalRoutes } from './routes.ts';
import { deleteSiteGoals } from './service.ts';

export const goalsModule: Module = {
  name: 'goals',
  async start(ctx) {
    ctx.sites.deleteHooks.push((siteId) => deleteSiteGoals(ctx.db, siteId));
  },
  routes: goalRoutes,
};
