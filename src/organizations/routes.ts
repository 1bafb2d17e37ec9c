// /api/v1/organizations: list, create, get, patch (session only).
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { userOf } from '../access/auth.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { CreateOrganizationBody, OrganizationSchema, PatchOrganizationBody } from './model.ts';
import * as orgs from './service.ts';

export const organizationRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations', tags: ['Organizations'] })
    .use(auth)
    .get('', async ({ access }) => ok({ organizations: await orgs.listOrganizations(ctx.meta, userOf(access)) }),
      { session: true, response: { 200: envelope(z.object({ organizations: z.array(OrganizationSchema) })), ...errorResponses } })
    .post('', async ({ access, body, set }) => {
      set.status = 201;
      return ok(await orgs.createOrganization(ctx.meta, userOf(access), { name: body.name, plan: body.plan ?? ctx.config.defaultPlan }));
    }, { session: true, body: CreateOrganizationBody, response: { 201: envelope(OrganizationSchema), ...errorResponses } })
    .get('/:orgId', async ({ access }) => ok((await orgs.getOrganization(ctx.meta, access.orgId!))!),
      { session: true, response: { 200: envelope(OrganizationSchema), ...errorResponses }, detail: { summary: 'One organization you belong to' } })
    .patch('/:orgId', async ({ access, body }) => ok(await orgs.patchOrganization(ctx.meta, access.orgId!, access.role!, body)),
      { session: true, body: PatchOrganizationBody, response: { 200: envelope(OrganizationSchema), ...errorResponses }, detail: { summary: 'Rename or change plan (owner only)' } });
