// DELETE /sites/{siteId}/visitors/{visitorId} and DELETE /sites/{siteId}/visitors?external_id=|uid= (session
// of an owner or admin): erase a visitor from every stored row, with an audit record.
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { userOf } from '../access/auth.ts';
import type { Graveyard } from '../storage/erase-visitor.ts';
import { assertMayErase, eraseByAccount, eraseById } from './erase-service.ts';

const Erased = z.object({ id: z.string(), events_deleted: z.number().int(), visits_deleted: z.number().int() });
const ByAccountQuery = z.object({ external_id: z.string().min(1).max(500).optional(), uid: z.string().min(1).max(500).optional() });

const WHAT = 'its profile and identify data, every event and visit in every stored file and table, and its events still in the ingest log (dropped as they load). Each erasure is audited (who, when, which visitor id, counts; no personal data). Owner or admin session only';

export const eraseRoutes = (ctx: AppContext, auth: Auth, graveyard: Graveyard) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/visitors', tags: ['Visitors'] })
    .use(auth)
    .delete('/:visitorId', async ({ access, params }) => {
      assertMayErase(access.role);
      return ok(await eraseById(ctx, graveyard, access.site!.id, userOf(access), params.visitorId));
    }, {
      session: true,
      response: { 200: envelope(Erased), ...errorResponses },
      detail: { summary: `Erase a visitor by profile id: ${WHAT}` },
    })
    .delete('/', async ({ access, query }) => {
      assertMayErase(access.role);
      return ok(await eraseByAccount(ctx, graveyard, access.site!.id, userOf(access), query));
    }, {
      session: true,
      query: ByAccountQuery,
      response: { 200: envelope(Erased.extend({ visitors: z.array(Erased) })), ...errorResponses },
      detail: {
        summary: `Erase a visitor by account: exactly one of external_id (every profile carrying it; 404 if none) or uid (the tracker's visitor_uid; erased even if only its log events exist yet). Counts are summed over the profiles erased, listed in visitors. Erases ${WHAT}`,
      },
    });
