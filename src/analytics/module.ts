// The analytics feature as a server module: the stats, charts, breakdown, realtime and revenue reports and the query API (routes only).
import { Elysia } from 'elysia';
import type { Module } from '../module.ts';
import { analyticsRoutes } from './routes.ts';
import { queryRoutes } from './query-routes.ts';

export const analyticsModule = (): Module => ({ name: 'analytics', routes: (ctx, auth) => new Elysia().use(analyticsRoutes(ctx, auth)).use(queryRoutes(ctx, auth)) });
