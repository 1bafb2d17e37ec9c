// The goals feature as a server module: routes plus its share of a site's deletion.
import type { Module } from '../module.ts';
import { goalRoutes } from './routes.ts';
import { deleteSiteGoals } from './service.ts';

export const goalsModule = (): Module => ({
  name: 'goals',
  dropSiteMeta: (tx, siteId) => deleteSiteGoals(tx, siteId),
  routes: goalRoutes,
});
