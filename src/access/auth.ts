// The auth plugin: one macro per credential kind, running contract §4's checks in order,
// before the body is parsed or validated so that 401/402/429/404/403 always win over 400.
import { Elysia } from 'elysia';
import type { AppContext } from '../app-context.ts';
import { ApiError, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { checkBeforeBody } from '../http/before-body.ts';
import { assertResourceExists } from './exists.ts';
import { authenticateKey, KEY_PREFIX, PLAN_REQUIRED, type AuthenticatedKey } from '../keys/service.ts';
import { SESSION_PREFIX, sessionUser } from '../accounts/sessions.ts';
import { membershipRole } from '../organizations/service.ts';
import { cameOverHttps, clearSessionCookie, sessionCookieOf } from './session-cookie.ts';
import { isSafeMethod, requestOrigin } from './same-origin.ts';
import { isShareToken, shareGrant, type ShareGrant } from '../shares/credentials.ts';
import { SHARED_LINKS_READ_ONLY, shareMayRead } from './share-reach.ts';
import type { KeyScope } from '../keys/model.ts';
import type { Site } from '../sites/model.ts';

export type Principal =
  | { kind: 'session'; userId: string; token: string; via: 'bearer' | 'cookie' }
  | { kind: 'key'; key: AuthenticatedKey }
  | { kind: 'share'; grant: ShareGrant };

export type Access = { principal: Principal; orgId: string | null; role: string | null; site: Site | null; rateHeaders: Record<string, string> };

type Need = { kind: 'session' } | { kind: 'data'; scope: KeyScope };

export function bearerToken(request: Request): string | undefined {
  const h = request.headers.get('authorization');
  const m = h?.match(/^Bearer\s+(\S+)\s*$/i);
  return m?.[1];
}

type Credential = { token: string; via: 'bearer' | 'cookie' };

/**
 * The request's credential: `Authorization: Bearer` wins; else the session cookie, but only on a request
 * from our own pages (same-origin.ts). Another site's form or fetch that carries the cookie is refused when
 * it would change something, and is answered as if it had no cookie when it only reads.
 */
function credentialOf(ctx: AppContext, request: Request): Credential | undefined {
  const bearer = bearerToken(request);
  if (bearer) return { token: bearer, via: 'bearer' };
  const cookie = sessionCookieOf(request);
  if (!cookie) return undefined;
  const origin = requestOrigin(request, ctx.config.trustProxy);
  if (isSafeMethod(request.method)) return origin === 'cross' ? undefined : { token: cookie, via: 'cookie' };
  // A write needs proof of its origin: every browser sends Origin or Sec-Fetch-Site with one.
  if (origin !== 'same') throw forbidden('Cross-site request refused');
  return { token: cookie, via: 'cookie' };
}

/** Who is calling (contract §4 steps 1–3), and the data rate-limit headers counted for them. */
async function authenticate(
  ctx: AppContext,
  need: Need,
  credential: Credential | undefined,
  request: Request,
): Promise<{ principal: Principal; rateHeaders: Record<string, string> }> {
  const token = credential?.token;
  if (credential?.via === 'cookie') {
    // The cookie only ever carries a session: never read its value as any other kind of credential.
    const userId = await sessionUser(ctx.meta, credential.token);
    if (!userId) {
      // A dead cookie is dropped by the first answer that finds it dead, so the page shows its sign-in form.
      const refusal = unauthorized('Invalid or expired session');
      refusal.headers['Set-Cookie'] = clearSessionCookie(cameOverHttps(request, ctx.config.trustProxy));
      throw refusal;
    }
    const rateHeaders = need.kind === 'data' ? (await ctx.limiters.data.hit(`user:${userId}`)).headers : {};
    return { principal: { kind: 'session', userId, token: credential.token, via: 'cookie' }, rateHeaders };
  }
  if (need.kind === 'session') {
    if (token?.startsWith(KEY_PREFIX)) throw forbidden('API keys cannot access this endpoint');
    if (token && isShareToken(token)) throw forbidden(SHARED_LINKS_READ_ONLY);
    const userId = token && (await sessionUser(ctx.meta, token));
    if (!userId) throw unauthorized('Invalid or expired session');
    return { principal: { kind: 'session', userId, token: token!, via: 'bearer' }, rateHeaders: {} };
  }
  if (!token) throw unauthorized('Missing or invalid Authorization header');
  if (token.startsWith(KEY_PREFIX)) {
    const key = await authenticateKey(ctx.meta, token, ctx.keyUsage);
    if (key.plan === 'maker') throw new ApiError(402, PLAN_REQUIRED);
    return { principal: { kind: 'key', key }, rateHeaders: (await ctx.limiters.data.hit(`key:${key.id}`)).headers };
  }
  if (isShareToken(token)) {
    const grant = await shareGrant(ctx.meta, token);
    return { principal: { kind: 'share', grant }, rateHeaders: (await ctx.limiters.data.hit(`share:${grant.linkId}`)).headers };
  }
  const userId = await sessionUser(ctx.meta, token);
  // Data endpoints are API-key endpoints first: any unknown token is a bad key unless it looks like a session.
  if (!userId) throw unauthorized(token.startsWith(SESSION_PREFIX) ? 'Invalid or expired session' : 'Invalid or expired API key');
  return { principal: { kind: 'session', userId, token, via: 'bearer' }, rateHeaders: (await ctx.limiters.data.hit(`user:${userId}`)).headers };
}

/** The caller's role in the addressed organization: 404 unless a member (or a key of that organization). */
async function roleIn(ctx: AppContext, principal: Principal, orgId: string): Promise<string> {
  if (principal.kind === 'session') return membershipRole(ctx.meta, principal.userId, orgId);
  if (principal.kind === 'share') {
    if (principal.grant.orgId !== orgId) throw notFound('Organization not found');
    return 'shared_link';
  }
  if (principal.key.org_id !== orgId) throw notFound('Organization not found');
  return 'api_key';
}

async function check(ctx: AppContext, need: Need, request: Request, params: Record<string, string>): Promise<Access> {
  const { principal, rateHeaders } = await authenticate(ctx, need, credentialOf(ctx, request), request);
  if (params.orgId === undefined) {
    if (principal.kind === 'share') {
      const refusal = forbidden(SHARED_LINKS_READ_ONLY);
      Object.assign(refusal.headers, rateHeaders);
      throw refusal;
    }
    return { principal, orgId: null, role: null, site: null, rateHeaders };
  }
  try {
    // UUIDs are case-insensitive; stored ones are lowercase.
    const orgId = params.orgId.toLowerCase();
    const role = await roleIn(ctx, principal, orgId);
    if (need.kind === 'data' && principal.kind === 'key' && !principal.key.scopes.includes(need.scope)) {
      throw forbidden(`API key missing required scope: ${need.scope}`);
    }
    // A shared link's "scope": the read-only dashboard endpoints, at the place of step 6.
    if (principal.kind === 'share' && !shareMayRead(request)) throw forbidden(SHARED_LINKS_READ_ONLY);
    let site: Site | null = null;
    if (params.siteId !== undefined) {
      site = (await ctx.sites.inOrgShared(orgId, params.siteId)) ?? null;
      if (!site || (principal.kind === 'share' && site.id !== principal.grant.siteId)) throw notFound('Site not found');
      await assertResourceExists(ctx, site, params);
    }
    return { principal, orgId, role, site, rateHeaders };
  } catch (e) {
    // A refusal after the request was counted still tells the caller where they stand.
    if (e instanceof ApiError) Object.assign(e.headers, rateHeaders);
    throw e;
  }
}

/**
 * `session: true` — session token only (account, key and site management).
 * `scope: 'x:read'` — data endpoint: API key holding that scope, a member's session, or a shared link's
 * token (its own site's read-only endpoints, share-reach.ts).
 * A session is `Bearer ses_…` or the `tern_session` cookie on a same-origin request.
 * Both resolve `access` ({principal, orgId, role, site}) for the handler.
 */
export function authPlugin(ctx: AppContext) {
  const hooks = (need: Need) => {
    const { run, hooks } = checkBeforeBody((request, params) => check(ctx, need, request, params), (a) => a.rateHeaders);
    return { ...hooks, resolve: async ({ request, params }: any) => ({ access: await run(request, params) }) };
  };
  return new Elysia({ name: 'auth' }).macro({
    session: (enabled: true) => hooks({ kind: 'session' }),
    scope: (scope: KeyScope) => hooks({ kind: 'data', scope }),
  });
}

/** The session's user id, for handlers behind `session: true`. */
export const userOf = (a: Access) => {
  if (a.principal.kind !== 'session') throw forbidden('API keys cannot access this endpoint');
  return a.principal.userId;
};
