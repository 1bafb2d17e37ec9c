// /api/v1/organizations/{orgId}/api-keys: create (shown once), list (masked), revoke. Session only.
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { ApiKeySchema, CreatedKeySchema, CreateKeyBody, RevokedKeySchema } from './model.ts';
import * as keys from './service.ts';

export const keyRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/api-keys', tags: ['API keys'] })
    .use(auth)
    .post('', async ({ access, body, set }) => {
      set.status = 201;
      return ok(await keys.createKey(ctx.meta, access.orgId!, body));
    }, { session: true, body: CreateKeyBody, response: { 201: envelope(CreatedKeySchema), ...errorResponses }, detail: { summary: 'Create a key; the full key is in this response only' } })
    .get('', async ({ access }) => ok({ api_keys: await keys.listKeys(ctx.meta, access.orgId!, ctx.keyUsage) }),
      { session: true, response: { 200: envelope(z.object({ api_keys: z.array(ApiKeySchema) })), ...errorResponses } })
    .delete('/:keyId', async ({ access, params }) => ok(await keys.revokeKey(ctx.meta, access.orgId!, params.keyId)),
      { session: true, response: { 200: envelope(RevokedKeySchema), ...errorResponses }, detail: { summary: 'Revoke a key; effective on the next request' } });
