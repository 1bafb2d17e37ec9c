// The visitor-erasure module: its routes, and the replaced files it deletes once no query can read them.
import type { Module } from '../module.ts';
import { Graveyard } from '../storage/erase-visitor.ts';
import { clearEraseScratch } from '../storage/erase-rewrite.ts';
import { eraseRoutes } from './erase-routes.ts';

export function erasureModule(): Module {
  const graveyard = new Graveyard();
  return {
    name: 'visitor-erasure',
    routes: (ctx, auth) => eraseRoutes(ctx, auth, graveyard),
    // Scratch files of a rewrite a crash cut short belong to no one.
    async start(ctx) { clearEraseScratch(ctx.config.dataDir); },
    // The server has stopped answering: no query still reads the replaced files.
    async stop() { graveyard.bury(); },
  };
}
