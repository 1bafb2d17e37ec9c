// /sites/{siteId}/visitors: profile list and a visitor's timeline (visitors:read).
import { Elysia } from 'elysia';
import { csvAnswers } from '../http/csv-response.ts';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, ok, reportErrorResponses } from '../http/envelope.ts';
import { TimelineSchema, VisitorListQuery, VisitorListSchema } from './model.ts';
import { PageQuery } from '../http/page-query.ts';
import { visitorList, visitorTimeline } from './service.ts';
import { pinned } from '../query/pinned.ts';

export const visitorRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/visitors', tags: ['Visitors'] })
    .use(auth)
    .use(csvAnswers())
    .get('/', async ({ access, query }) => ok(await pinned(ctx.query, (src) => visitorList(src, access.site!.id, query))), {
      scope: 'visitors:read',
      query: VisitorListQuery,
      response: { 200: envelope(VisitorListSchema), ...reportErrorResponses },
      detail: {
        summary: 'Visitor profiles, most recently seen first; search matches part of email, name, uid or external_id (case-insensitive); page ≥ 1, limit 1–100 (default 50); total_goals counts lifetime completions of the active goals',
      },
    })
    .get('/:visitorId/timeline', async ({ access, params, query }) => ok(await pinned(ctx.query, (src) => visitorTimeline(src, access.site!.id, params.visitorId, query))), {
      scope: 'visitors:read',
      query: PageQuery,
      response: { 200: envelope(TimelineSchema), ...reportErrorResponses },
      detail: { summary: "A visitor's profile and events, newest first; {visitorId} is the profile's UUID id; page/limit as for the list" },
    });
