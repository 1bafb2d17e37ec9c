// /api/v1/organizations/{orgId}/sites: list and details (sites:read), create/patch/delete (session).
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { CreateSiteBody, PatchSiteBody, SiteSchema } from './model.ts';
import * as sites from './service.ts';
import type { DropSite } from './service.ts';

export const siteRoutes = (ctx: AppContext, auth: Auth, dropSite: DropSite) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites', tags: ['Sites'] })
    .use(auth)
    .get('', ({ access }) => ok({ sites: ctx.sites.ofOrg(access.orgId!).map(sites.publicSite) }),
      { scope: 'sites:read', response: { 200: envelope(z.object({ sites: z.array(SiteSchema) })), ...errorResponses } })
    .get('/:siteId', ({ access }) => ok(sites.publicSite(access.site!)),
      { scope: 'sites:read', response: { 200: envelope(SiteSchema), ...errorResponses } })
    .post('', async ({ access, body, set }) => {
      set.status = 201;
      return ok(sites.publicSite(await sites.createSite(ctx.meta, ctx.sites, access.orgId!, body)));
    }, { session: true, body: CreateSiteBody, response: { 201: envelope(SiteSchema), ...errorResponses } })
    .patch('/:siteId', async ({ access, body }) => ok(sites.publicSite(await sites.patchSite(ctx.meta, ctx.sites, access.site!, body))),
      { session: true, body: PatchSiteBody, response: { 200: envelope(SiteSchema), ...errorResponses } })
    .delete('/:siteId', async ({ access }) => ok(await sites.deleteSite(ctx.meta, ctx.db, ctx.sites, ctx.analyticsWrites, dropSite, access.site!)),
      { session: true, response: { 200: envelope(z.object({ id: z.string() })), ...errorResponses }, detail: { summary: 'Delete a site and all its events' } });
