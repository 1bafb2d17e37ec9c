// POST /api/v1/organizations/{orgId}/sites/{siteId}/query: the analysts' query API (scope analytics:read),
// metrics × dimensions × filters × time on the reports' engine.
import { Elysia } from 'elysia';
import { csvAnswers } from '../http/csv-response.ts';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, ok, reportErrorResponses } from '../http/envelope.ts';
import { QueryBody } from '../query/parse/query-body.ts';
import { QUERY_EXAMPLES, QueryAnswerSchema } from './query-model.ts';
import { customQuery } from './query-service.ts';
import { listGoals } from '../goals/service.ts';
import { pinned } from '../query/pinned.ts';

const DESCRIPTION = 'Metrics × dimensions × filters × time over the site (after Plausible\'s Stats API v2), on the same engine as the reports. '
  + 'Every part of the body is checked; an invalid one is a 400 naming its path (e.g. `filters[0][1]: unknown dimension \'visit:colour\'`). '
  + 'Visit metrics (visitors, visits, bounce_rate, visit_duration) of visit: dimensions are counted on the visits that started in the range; with an event: dimension, '
  + 'visitors and visits are those holding a matching event, and bounce_rate and visit_duration those of these visits. Revenue counts an order_id once, in the site currency. '
  + 'event:goal names a goal by its name or id. Answers CSV with Accept: text/csv or format=csv.';

export const queryRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId', tags: ['Analytics'] })
    .use(auth)
    .use(csvAnswers())
    .post('/query', async ({ access, body }) => {
      const site = access.site!;
      return ok(await pinned(ctx.query, (src) => customQuery(src, () => listGoals(ctx.meta, site.id), site, body)));
    }, {
      scope: 'analytics:read',
      // The parse stage checks the body itself, so that a 400 names the part (filters[1][2]); the schema documents it.
      body: z.unknown(),
      response: { 200: envelope(QueryAnswerSchema), ...reportErrorResponses },
      detail: {
        summary: 'Query: metrics × dimensions × filters × time',
        description: DESCRIPTION,
        requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(QueryBody, { unrepresentable: 'any', io: 'input' }) as any, examples: QUERY_EXAMPLES } } },
      },
    });
