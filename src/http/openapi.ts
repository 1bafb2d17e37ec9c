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
            description: [
              'Self-hosted web analytics. Data endpoints take an API key (`Authorization: Bearer sk_live_…`) holding the listed scope, ' +
                "or an organization member's session. A success body is `{success: true, data: …}`; an error body holds one string field, `error`. " +
                'Ingestion (`POST /api/v1/event`, `/identify`) needs no credential. See the README for the order of checks, scopes and rate limits.',
              '**Dashboard session cookie.** `POST /auth/login` or `/auth/register` with `"cookie": true` puts the session into the `tern_session` cookie ' +
                '(`HttpOnly; SameSite=Strict; Path=/`, 30 days, `Secure` over HTTPS or behind `TRUST_PROXY` with `X-Forwarded-Proto: https`) and leaves `token` out of the body. ' +
                'The cookie counts as a session only on a same-origin request (`Sec-Fetch-Site: same-origin` or `none`, or an `Origin` whose host is the request\'s `Host`): ' +
                'another site\'s write carrying it gets `403 Cross-site request refused`, a write with neither header too, and another site\'s read is answered as if it had no cookie. ' +
                '`Authorization: Bearer` wins when both are present. `POST /auth/logout` with the cookie ends the session and clears it.',
              '**Shared links.** A member creates read-only links to one site (`…/sites/{siteId}/shared-links`); the token (`shl_…`) is shown once. ' +
                '`GET /api/v1/share/{token}` tells the site and whether a password is asked; `POST /api/v1/share/{token}/unlock` trades the password for a 24-hour `shs_…` token. ' +
                'Either token, as `Authorization: Bearer`, reads only GET `analytics/*`, `goals`, `goals/stats`, `goals/{goalId}/stats`, `funnels`, `funnels/{funnelId}/analysis` ' +
                'and `annotations` of its own site (600 requests per 60 s per link); any other endpoint or method answers `403 Shared links are read-only`, another site `404`. ' +
                'Revoking a link ends it and its `shs_` tokens at once.',
            ].join('\n\n'),
          },
          components: {
            securitySchemes: {
              bearer: {
                type: 'http',
                scheme: 'bearer',
                description: 'API key (sk_live_…), session token (ses_…), or a shared link\'s token (shl_…, or shs_… after unlock: read-only, one site)',
              },
              session_cookie: {
                type: 'apiKey',
                in: 'cookie',
                name: 'tern_session',
                description: 'The dashboard session (login with `cookie: true`); same-origin requests only',
              },
            },
          },
          security: [{ bearer: [] }, { session_cookie: [] }],
        },
      }),
    );
};
