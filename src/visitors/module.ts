// The visitors feature as a server module (profiles are stored analytics rows: storage drops them with the site).
import type { Module } from '../module.ts';
import { visitorRoutes } from './routes.ts';

export const visitorsModule = (): Module => ({ name: 'visitors', routes: visitorRoutes });
