// The accounts feature as a server module: register, log in and out, me (routes only).
import type { Module } from '../module.ts';
import { accountRoutes } from './routes.ts';

export const accountsModule = (): Module => ({ name: 'accounts', routes: accountRoutes });
