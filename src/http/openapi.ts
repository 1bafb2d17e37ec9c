// OpenAPI 3 document generated from the routes' zod schemas, at /api/v1/openapi.json, with a reference page at /docs.
import { openapi } from '@elysiajs/openapi';
import { z } from 'zod';

export const openapiPlugin = () =>
  openapi({
    path: '/docs',
    specPath: '/api/v1/openapi.json',
    mapJsonSchema: { zod: (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: 'any', io: 'output' }) },
    documentation: {
      info: {
        title: 'Tern API',
        version: '1.0.0',
        description:
          'Self-hosted web analytics. Data endpoints take an API key (`Authorization: Bearer sk_live_…`) with the listed scope, or a member\'s session token. ' +
          'Success bodies are `{"success": true, "data": …}`; errors are `{"error": "…"}`. Ingestion (`POST /api/v1/event`, `/identify`) needs no credential.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (sk_live_…) or session token' } },
      },
      security: [{ bearer: [] }],
    },
  });
