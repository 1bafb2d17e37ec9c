// The visitors feature as a server module (profiles are site-owned rows the site service already deletes).
import type { Module } from '../module.ts';
import { visitorRoutes } from './routes.ts';

export const visitorsModule: Module = { name: 'visitors', routes: visitorRoutes };
