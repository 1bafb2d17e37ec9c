// /sites/{siteId}/funnels: list and analysis (funnels:read); create, update, delete (funnels:write).
import { Elysia } from 'elysia';
import { csvAnswers } from '../http/csv-response.ts';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok, reportErrorResponses } from '../http/envelope.ts';
import { AnalysisSchema, CreateFunnelBody, FunnelSchema, PatchFunnelBody } from './model.ts';
import * as funnels from './service.ts';
import { analyzeFunnel } from './analysis.ts';
import { CommonQuery } from '../query/parse/common-query.ts';
import { pinned } from '../query/pinned.ts';

export const funnelRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/funnels', tags: ['Funnels'] })
    .use(auth)
    .use(csvAnswers())
    .get('/', async ({ access }) => ok({ funnels: await funnels.listFunnels(ctx.meta, access.site!.id) }), {
      scope: 'funnels:read',
      response: { 200: envelope(z.object({ funnels: z.array(FunnelSchema) })), ...errorResponses },
    })
    .post('/', async ({ access, body, set }) => {
      set.status = 201;
      return ok(await funnels.createFunnel(ctx.meta, access.site!.id, body));
    }, {
      scope: 'funnels:write',
      body: CreateFunnelBody,
      response: { 201: envelope(FunnelSchema), ...errorResponses },
      detail: { summary: 'Create a funnel: 2–8 ordered steps (pageview path glob, event name or goal id); window session (default), 1h, 1d, 7d or 30d' },
    })
    .patch('/:funnelId', async ({ access, params, body }) => ok(await funnels.updateFunnel(ctx.meta, access.site!.id, params.funnelId, body)), {
      scope: 'funnels:write',
      body: PatchFunnelBody,
      response: { 200: envelope(FunnelSchema), ...errorResponses },
    })
    .delete('/:funnelId', async ({ access, params }) => ok(await funnels.deleteFunnel(ctx.meta, access.site!.id, params.funnelId)), {
      scope: 'funnels:write',
      response: { 200: envelope(z.object({ id: z.string() })), ...errorResponses },
    })
    .get('/:funnelId/analysis', async ({ access, params, query }) => ok(await pinned(ctx.query, (src) => analyzeFunnel(src, access.site!, params.funnelId, query))), {
      scope: 'funnels:read',
      query: CommonQuery,
      response: { 200: envelope(AnalysisSchema), ...reportErrorResponses },
      detail: {
        summary: 'Visitors per step (in order; step k strictly after step k−1), conversion from the first and previous step, drop-off from the previous step, median seconds from the previous step',
      },
    });
