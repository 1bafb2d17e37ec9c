// Shared links: management under a site (session only, any member, as for the site itself) and the public /api/v1/share side.
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { checkBeforeBody } from '../http/before-body.ts';
import { clientIp } from '../http/client-ip.ts';
import { RateLimiter, type Verdict } from '../http/rate-limit.ts';
import { linkByToken, type LiveLink } from './credentials.ts';
import { CreatedLinkSchema, CreateLinkBody, RevokedLinkSchema, SharedLinkSchema, ShareInfoSchema, UnlockBody, UnlockResult } from './model.ts';
import * as links from './links.ts';

const LINK_NOT_FOUND = 'Shared link not found';

const manageRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/shared-links', tags: ['Shared links'] })
    .use(auth)
    .post('', async ({ access, body, set }) => {
      const created = await links.createLink(ctx.meta, access.site!, body);
      set.status = 201;
      return ok(created);
    }, {
      session: true, body: CreateLinkBody, response: { 201: envelope(CreatedLinkSchema), ...errorResponses },
      detail: {
        summary: 'Create a read-only link to the site’s dashboard; the token is in this response only',
        description: 'Any member of the organization may create, list and revoke links, as for the site’s own settings. Session only.',
      },
    })
    .get('', async ({ access }) => ok({ shared_links: await links.listLinks(ctx.meta, access.site!.id) }),
      { session: true, response: { 200: envelope(z.object({ shared_links: z.array(SharedLinkSchema) })), ...errorResponses }, detail: { summary: 'The site’s live shared links, tokens masked' } })
    .delete('/:linkId', async ({ access, params }) => ok(await links.revokeLink(ctx.meta, access.site!.id, params.linkId)),
      { session: true, response: { 200: envelope(RevokedLinkSchema), ...errorResponses }, detail: { summary: 'Revoke a link: it and its unlocked sessions stop working at once' } });

const publicRoutes = (ctx: AppContext) => {
  /** Password guesses per link, whatever the IP: a spread-out guesser meets the same wall as one. */
  const unlockAttempts = new RateLimiter(ctx.config.authRateLimit);

  async function liveLink(token: string) {
    const link = await linkByToken(ctx.meta, token);
    // A link whose site was deleted is gone with it, even before the delete hook ran.
    const site = link && ctx.sites.inOrg(link.orgId, link.siteId);
    if (!link || !site) throw notFound(LINK_NOT_FOUND);
    return { link, site };
  }

  // Unlock counts per client IP (like login), then per link, before the body is read.
  const unlock = checkBeforeBody(async (request, params): Promise<{ link: LiveLink; verdict: Verdict }> => {
    const perIp = ctx.limiters.auth.hit(`ip:${clientIp(request, ctx.config.trustProxy)}`);
    try {
      const { link } = await liveLink(params.token ?? '');
      const perLink = unlockAttempts.hit(`link:${link.id}`);
      return { link, verdict: perLink.remaining < perIp.remaining ? perLink : perIp };
    } catch (e) {
      // A 429 from the per-link limit carries its own headers; anything else reports the per-IP count.
      if (e instanceof ApiError && !e.headers['X-RateLimit-Limit']) Object.assign(e.headers, perIp.headers);
      throw e;
    }
  }, (v) => v.verdict.headers);

  return new Elysia({ prefix: '/api/v1/share', tags: ['Shared links'] })
    .get('/:token', async ({ params, set }) => {
      const { link, site } = await liveLink(params.token);
      Object.assign(set.headers, (await ctx.limiters.data.hit(`share:${link.id}`)).headers);
      return ok(links.describeLink(link, site));
    }, {
      response: { 200: envelope(ShareInfoSchema), ...errorResponses },
      detail: { summary: 'What a shared link shows: its site, and whether a password is asked', security: [] },
    })
    .post('/:token/unlock', async ({ request, params, body }) => {
      const { link } = await unlock.run(request, params);
      return ok(await links.unlockLink(ctx.meta, link, body.password));
    }, {
      ...unlock.hooks, body: UnlockBody, response: { 200: envelope(UnlockResult), ...errorResponses },
      detail: { summary: 'Exchange a shared link’s password for a 24-hour access token (shs_…)', security: [] },
    });
};

export const shareRoutes = (ctx: AppContext, auth: Auth) => new Elysia().use(manageRoutes(ctx, auth)).use(publicRoutes(ctx));
