// The shared-links feature as a server module: routes plus its share of a site's deletion.
import type { Module } from '../module.ts';
import { shareRoutes } from './routes.ts';
import { deleteSiteLinks } from './links.ts';

export const sharesModule = (): Module => ({
  name: 'shares',
  dropSiteMeta: (tx, siteId) => deleteSiteLinks(tx, siteId),
  routes: shareRoutes,
});
