// The funnels feature as a server module: routes plus its share of a site's deletion.
import type { Module } from '../module.ts';
import { funnelRoutes } from './routes.ts';
import { deleteSiteFunnels } from './service.ts';

export const funnelsModule = (): Module => ({
  name: 'funnels',
  dropSiteMeta: (tx, siteId) => deleteSiteFunnels(tx, siteId),
  routes: funnelRoutes,
});
