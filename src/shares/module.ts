// The shared-links feature as a server module: routes plus site-delete cleanup.
import type { Module } from '../module.ts';
import { shareRoutes } from './routes.ts';
import { deleteSiteLinks } from './links.ts';

export const sharesModule: Module = {
  name: 'shares',
  async start(ctx) {
    ctx.sites.deleteHooks.push((siteId) => deleteSiteLinks(ctx.db, siteId));
  },
  routes: shareRoutes,
};
