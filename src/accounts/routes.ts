// /api/v1/auth: register, login (rate-limited per client IP), logout, me.
import { Elysia } from 'elysia';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, ok, errorResponses } from '../http/envelope.ts';
import { ipLimitHooks } from '../http/ip-limit.ts';
import { decoyHash } from '../security/passwords.ts';
import { userOf } from '../access/auth.ts';
import { endSession } from './sessions.ts';
import { LoginBody, LoginResult, MeResult, RegisterBody, RegisterResult } from './model.ts';
import * as accounts from './service.ts';
import { z } from 'zod';

export const accountRoutes = (ctx: AppContext, auth: Auth) => {
  const limited = ipLimitHooks(ctx.limiters.auth, ctx.config.trustProxy);
  // Pay for the decoy hash now, not on the first login with an unknown email.
  void decoyHash();
  return new Elysia({ prefix: '/api/v1/auth', tags: ['Auth'] })
    .use(auth)
    .post('/register', async ({ body, set }) => {
      set.status = 201;
      return ok(await accounts.register(ctx.db, ctx.config, body));
    }, { ...limited, body: RegisterBody, response: { 201: envelope(RegisterResult), ...errorResponses }, detail: { summary: 'Create an account and its first organization', security: [] } })
    .post('/login', async ({ body }) => ok(await accounts.login(ctx.db, body)),
      { ...limited, body: LoginBody, response: { 200: envelope(LoginResult), ...errorResponses }, detail: { summary: 'Exchange email and password for a session token', security: [] } })
    .post('/logout', async ({ access }) => {
      userOf(access);
      await endSession(ctx.db, (access.principal as { token: string }).token);
      return ok({});
    }, { session: true, response: { 200: envelope(z.object({})), ...errorResponses }, detail: { summary: 'End this session at once' } })
    .get('/me', async ({ access }) => ok(await accounts.me(ctx.db, userOf(access))),
      { session: true, response: { 200: envelope(MeResult), ...errorResponses }, detail: { summary: 'The signed-in user and their organizations' } });
};
