// /sites/{siteId}/annotations: list (annotations:read), create and delete (annotations:write).
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { AnnotationListQuery, AnnotationSchema, CreateAnnotationBody } from './model.ts';
import * as annotations from './service.ts';

export const annotationRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId/annotations', tags: ['Annotations'] })
    .use(auth)
    .get('/', async ({ access, query }) => ok({ annotations: await annotations.listAnnotations(ctx.meta, access.site!.id, query) }), {
      scope: 'annotations:read',
      query: AnnotationListQuery,
      response: { 200: envelope(z.object({ annotations: z.array(AnnotationSchema) })), ...errorResponses },
      detail: { summary: 'List annotations, oldest date first; from/to (YYYY-MM-DD, inclusive) are optional' },
    })
    .post('/', async ({ access, body, set }) => {
      set.status = 201;
      return ok(await annotations.createAnnotation(ctx.meta, access.site!.id, body));
    }, {
      scope: 'annotations:write',
      body: CreateAnnotationBody,
      response: { 201: envelope(AnnotationSchema), ...errorResponses },
      detail: { summary: 'Create an annotation for a calendar date in the site time zone' },
    })
    .delete('/:annotationId', async ({ access, params }) => ok(await annotations.deleteAnnotation(ctx.meta, access.site!.id, params.annotationId)), {
      scope: 'annotations:write',
      response: { 200: envelope(z.object({ id: z.string() })), ...errorResponses },
    });
