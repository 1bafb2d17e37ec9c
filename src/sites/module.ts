// The sites feature as a server module: its routes, which delete a site through every module's dropSite.
import type { Module } from '../module.ts';
import { siteRoutes } from './routes.ts';
import type { DropSite } from './service.ts';

export const sitesModule = (dropSite: DropSite): Module => ({ name: 'sites', routes: (ctx, auth) => siteRoutes(ctx, auth, dropSite) });
