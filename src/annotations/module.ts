// The annotations feature as a server module: routes plus site-delete cleanup.
import type { Module } from '../module.ts';
import { annotationRoutes } from './routes.ts';
import { deleteSiteAnnotations } from './service.ts';

export const annotationsModule: Module = {
  name: 'annotations',
  async start(ctx) {
    ctx.sites.deleteHooks.push((siteId) => deleteSiteAnnotations(ctx.db, siteId));
  },
  routes: annotationRoutes,
};
