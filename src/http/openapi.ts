// OpenAPI 3 document generated from the routes' zod schemas, at /api/v1/openapi.json (the reference page at /docs is docs-page.ts).
import { Elysia } from 'elysia';
import { openapi } from '@elysiajs/openapi';
import { z } from 'zod';

const SPEC_PATH = '/api/v1/openapi.json';
const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { unrepresentable: 'any', io });

type Route = { method: string; path: string; hooks?: { body?: unknown } };

/**
 * The auth and rate-limit hooks run as custom `parse` functions (so 401/403/404/429 beat a 400 for
 * the body), and @elysiajs/openapi cannot tell which content type a custom parser takes: it leaves
 * such request bodies without content. Every such route takes JSON, so fill that in here.
 */
function fillJsonRequestBodies(doc: any, routes: Route[]) {
  for (const route of routes) {
    const body = route.hooks?.body;
    if (!(body instanceof z.ZodType)) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const op = doc?.paths?.[path]?.[route.method.toLowerCase()];
    if (op?.requestBody && Object.keys(op.requestBody.content ?? {}).length === 0) {
      op.requestBody.content = { 'application/json': { schema: toJsonSchema(body, 'input') } };
    }
  }
  return doc;
}

export const openapiPlugin = () => {
  const plugin = new Elysia({ name: 'openapi-docs' });
  return plugin
    // Registered before the spec route so that it applies to it.
    // getGlobalRoutes is protected in Elysia's types but is how @elysiajs/openapi itself sees every route.
    .onAfterHandle(({ path, responseValue }: any) => {
      if (path === SPEC_PATH) fillJsonRequestBodies(responseValue, (plugin as any).getGlobalRoutes() as Route[]);
    })
    .use(
      openapi({
        // No page from the plugin: it loads its script from a CDN. docs-page.ts serves our own copy.
        provider: null,
        specPath: SPEC_PATH,
        // /tracker.js looks like a static file, which the plugin skips by default; it is part of the API.
        exclude: { staticFile: false },
        mapJsonSchema: { zod: (schema: z.ZodType) => toJsonSchema(schema, 'output') },
        documentation: {
          info: {
            title: 'Tern API',
            version: '1.0.0',
            description:
              'Self-hosted web analytics. Data endpoints take an API key (`Authorization: Bearer sk_live_…`) holding the listed scope, ' +
              "or an organization member's session token. A success body is `{success: true, data: …}`; an error body holds one string field, `error`. " +
              'Ingestion (`POST /api/v1/event`, `/identify`) needs no credential. See the README for the order of checks, scopes and rate limits.',
          },
          components: {
            securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (sk_live_…) or session token (ses_…)' } },
          },
          security: [{ bearer: [] }],
        },
      }),
    );
};
