// The analytics feature as a server module: the stats, charts, breakdown, realtime and revenue reports (routes only).
import type { Module } from '../module.ts';
import { analyticsRoutes } from './routes.ts';

export const analyticsModule = (): Module => ({ name: 'analytics', routes: analyticsRoutes });
