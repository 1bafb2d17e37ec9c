// The organizations feature as a server module: organizations of the signed-in user (routes only).
import type { Module } from '../module.ts';
import { organizationRoutes } from './routes.ts';

export const organizationsModule = (): Module => ({ name: 'organizations', routes: organizationRoutes });
