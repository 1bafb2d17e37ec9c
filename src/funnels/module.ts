// The funnels feature as a server module: routes plus site-delete cleanup.
import type { Module } from '../module.ts';
import { funnelRoutes } from './routes.ts';
import { deleteSiteFunnels } from './service.ts';

export const funnelsModule: Module = {
  name: 'funnels',
  async start(ctx) {
    ctx.sites.deleteHooks.push((siteId) => deleteSiteFunnels(ctx.db, siteId));
  },
  routes: funnelRoutes,
};
