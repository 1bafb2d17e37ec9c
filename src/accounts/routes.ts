// /api/v1/auth: register, login (rate-limited per client IP), logout, me.
import { Elysia } from 'elysia';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, ok, errorResponses } from '../http/envelope.ts';
import { ipLimitHooks } from '../http/ip-limit.ts';
import { decoyHash } from '../security/passwords.ts';
import { userOf } from '../access/auth.ts';
import { endSession } from './sessions.ts';
import { cameOverHttps, clearSessionCookie, setSessionCookie } from '../access/session-cookie.ts';
import { requestOrigin } from '../access/same-origin.ts';
import { forbidden } from '../http/errors.ts';
import { LoginBody, LoginResult, MeResult, RegisterBody, RegisterResult } from './model.ts';
import * as accounts from './service.ts';
import { z } from 'zod';

export const accountRoutes = (ctx: AppContext, auth: Auth) => {
  const limited = ipLimitHooks(ctx.limiters.auth, ctx.config.trustProxy);
  // Pay for the decoy hash now, not on the first login with an unknown email.
  void decoyHash();
  /** With `cookie: true` the token travels in the HttpOnly cookie only: no page script ever holds it. */
  /** Login CSRF: another site must not sign a browser into an account of its choosing. */
  const refuseCrossSiteCookie = (cookie: boolean | undefined, request: Request) => {
    if (cookie && requestOrigin(request, ctx.config.trustProxy) === 'cross') throw forbidden('Cross-site request refused');
  };
  const answer = <T extends { token: string }>(result: T, cookie: boolean | undefined, request: Request, set: { headers: Record<string, any> }) => {
    if (!cookie) return ok(result);
    set.headers['set-cookie'] = setSessionCookie(result.token, cameOverHttps(request, ctx.config.trustProxy));
    const { token: _, ...rest } = result;
    return ok(rest);
  };
  return new Elysia({ prefix: '/api/v1/auth', tags: ['Auth'] })
    .use(auth)
    .post('/register', async ({ body, set, request }) => {
      refuseCrossSiteCookie(body.cookie, request);
      const result = await accounts.register(ctx.meta, ctx.config, body);
      set.status = 201;
      return answer(result, body.cookie, request, set);
    }, { ...limited, body: RegisterBody, response: { 201: envelope(RegisterResult), ...errorResponses }, detail: { summary: 'Create an account and its first organization', security: [] } })
    .post('/login', async ({ body, set, request }) => {
      refuseCrossSiteCookie(body.cookie, request);
      return answer(await accounts.login(ctx.meta, body), body.cookie, request, set);
    },
      { ...limited, body: LoginBody, response: { 200: envelope(LoginResult), ...errorResponses }, detail: { summary: 'Exchange email and password for a session token', security: [] } })
    .post('/logout', async ({ access, set, request }) => {
      userOf(access);
      const session = access.principal as { token: string; via: string };
      await endSession(ctx.meta, session.token);
      if (session.via === 'cookie') set.headers['set-cookie'] = clearSessionCookie(cameOverHttps(request, ctx.config.trustProxy));
      return ok({});
    }, { session: true, response: { 200: envelope(z.object({})), ...errorResponses }, detail: { summary: 'End this session at once (and clear the `tern_session` cookie when it came from there)' } })
    .get('/me', async ({ access }) => ok(await accounts.me(ctx.meta, userOf(access))),
      { session: true, response: { 200: envelope(MeResult), ...errorResponses }, detail: { summary: 'The signed-in user and their organizations' } });
};
