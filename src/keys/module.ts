// The keys feature as a server module: an organization's API keys (routes only).
import type { Module } from '../module.ts';
import { keyRoutes } from './routes.ts';

export const keysModule = (): Module => ({ name: 'keys', routes: keyRoutes });
