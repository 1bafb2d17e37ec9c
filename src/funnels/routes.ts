// /sites/{siteId}/funnels: list and analysis (funnels:read); create, update, delete (funnels:write).
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { CreateFunnelBody, FunnelSchema, PatchFunnelBody } from './model.ts';
import * as funnels from './service.ts';

export const funnelRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/funnels', tags: ['Funnels'] })
    .use(auth)
    .get('/', async ({ access }) => ok({ funnels: await funnels.listFunnels(ctx.db, access.site!.id) }), {
      scope: 'funnels:read',
      response: { 200: envelope(z.object({ funnels: z.array(FunnelSchema) })), ...errorResponses },
    })
    .post('/', async ({ access, body, set }) => {
      set.status = 201;
      return ok(await funnels.createFunnel(ctx.db, access.site!.id, body));
    }, {
      scope: 'funnels:write',
      body: CreateFunnelBody,
      response: { 201: envelope(FunnelSchema), ...errorResponses },
      detail: { summary: 'Create a funnel: 2–8 ordered steps (pageview path glob, event name or goal id); window session (default), 1h, 1d, 7d or 30d' },
    })
    .patch('/:funnelId', async ({ access, params, body }) => ok(await funnels.updateFunnel(ctx.db, access.site!.id, params.funnelId, body)), {
      scope: 'funnels:write',
      body: PatchFunnelBody,
      response: { 200: envelope(FunnelSchema), ...errorResponses },
    })
    .delete('/:funnelId', async ({ access, params }) => ok(await funnels.deleteFunnel(ctx.db, access.site!.id, params.funnelId)), {
      scope: 'funnels:write',
      response: { 200: envelope(z.object({ id: z.string() })), ...errorResponses },
    });
