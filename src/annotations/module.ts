// The annotations feature as a server module: routes plus its share of a site's deletion.
import type { Module } from '../module.ts';
import { annotationRoutes } from './routes.ts';
import { deleteSiteAnnotations } from './service.ts';

export const annotationsModule = (): Module => ({
  name: 'annotations',
  dropSiteMeta: (tx, siteId) => deleteSiteAnnotations(tx, siteId),
  routes: annotationRoutes,
});
