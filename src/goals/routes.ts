// /sites/{siteId}/goals: list, stats, completions (goals:read); create, update, archive/unarchive (goals:write).
import { Elysia } from 'elysia';
import { csvAnswers } from '../http/csv-response.ts';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok, reportErrorResponses } from '../http/envelope.ts';
import { CompletionsSchema, CreateGoalBody, GoalListQuery, GoalSchema, GoalsStatsSchema, GoalStatsSchema, PatchGoalBody } from './model.ts';
import * as goals from './service.ts';
import * as stats from './stats.ts';
import { ChartsQuery, CommonQuery } from '../query/parse/common-query.ts';
import { PageQuery } from '../http/page-query.ts';
import { pinned } from '../query/pinned.ts';

const GoalResponse = { 200: envelope(GoalSchema), ...errorResponses };

export const goalRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/goals', tags: ['Goals'] })
    .use(auth)
    .use(csvAnswers())
    .get('/', async ({ access, query }) => ok({ goals: await goals.listGoals(ctx.meta, access.site!.id, query.include_archived === 'true') }), {
      scope: 'goals:read',
      query: GoalListQuery,
      response: { 200: envelope(z.object({ goals: z.array(GoalSchema) })), ...errorResponses },
      detail: { summary: 'List goals; archived ones only with include_archived=true' },
    })
    .post('/', async ({ access, body, set }) => {
      set.status = 201;
      return ok(await goals.createGoal(ctx.meta, access.site!.id, body));
    }, {
      scope: 'goals:write',
      body: CreateGoalBody,
      response: { 201: envelope(GoalSchema), ...errorResponses },
      detail: { summary: "Create a goal: type pageview with a path glob ('*' one segment, '**' any depth) or type event with an event_name; value adds to revenue per completion" },
    })
    .patch('/:goalId', async ({ access, params, body }) => ok(await goals.updateGoal(ctx.meta, access.site!.id, params.goalId, body)), {
      scope: 'goals:write',
      body: PatchGoalBody,
      response: GoalResponse,
      detail: { summary: 'Update name, path (pageview goals), event_name (event goals) or value (null clears it)' },
    })
    .post('/:goalId/archive', async ({ access, params }) => ok(await goals.setArchived(ctx.meta, access.site!.id, params.goalId, true)), {
      scope: 'goals:write',
      response: GoalResponse,
    })
    .post('/:goalId/unarchive', async ({ access, params }) => ok(await goals.setArchived(ctx.meta, access.site!.id, params.goalId, false)), {
      scope: 'goals:write',
      response: GoalResponse,
    })
    .get('/stats', async ({ access, query }) => ok(await pinned(ctx.query, (src) => stats.allGoalStats(src, access.site!, query))), {
      scope: 'goals:read',
      query: CommonQuery.extend(GoalListQuery.shape),
      response: { 200: envelope(GoalsStatsSchema), ...reportErrorResponses },
      detail: { summary: 'Per-goal visitors, completions, conversion rate (% of all visitors in range) and revenue (event revenue + value per completion)' },
    })
    .get('/:goalId/stats', async ({ access, params, query }) => ok(await pinned(ctx.query, (src) => stats.oneGoalStats(src, access.site!, params.goalId, query))), {
      scope: 'goals:read',
      query: ChartsQuery,
      response: { 200: envelope(GoalStatsSchema), ...reportErrorResponses },
      detail: { summary: "One goal's totals and chart points (interval hour/day/week/month; default as for /analytics/charts)" },
    })
    .get('/:goalId/completions', async ({ access, params, query }) => ok(await pinned(ctx.query, (src) => stats.completions(src, access.site!, params.goalId, query))), {
      scope: 'goals:read',
      query: CommonQuery.extend(PageQuery.shape),
      response: { 200: envelope(CompletionsSchema), ...reportErrorResponses },
      detail: { summary: 'Completions newest first, paginated (page ≥ 1, limit 1–100, default 50); all time unless period parameters are given' },
    });
