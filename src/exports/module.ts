// The exports feature module: the download route; start clears files of downloads a crash cut short.
import type { Module } from '../module.ts';
import { clearExports } from './export-service.ts';
import { exportRoutes } from './routes.ts';

export const exportsModule = (): Module => ({
  name: 'exports',
  async start(ctx) { clearExports(ctx.config.dataDir); },
  routes: exportRoutes,
});
