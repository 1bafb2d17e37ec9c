// GET /api/v1/organizations/{orgId}/sites/{siteId}/export: a site's events or visits as a file download.
import { Elysia } from 'elysia';
import type { AppContext } from '../app-context.ts';
import type { Auth } from '../module.ts';
import { reportErrorResponses } from '../http/envelope.ts';
import { forbidden } from '../http/errors.ts';
import { ExportQuery } from './model.ts';
import { exportData } from './export-service.ts';

/** Rows carry visitor ids, so a key needs visitors:read besides analytics:read (checked by the auth macro). */
const SECOND_SCOPE = 'visitors:read';

export const exportRoutes = (ctx: AppContext, auth: Auth) =>
  new Elysia({ prefix: '/api/v1/organizations/:orgId/sites/:siteId', tags: ['Export'] })
    .use(auth)
    .get('/export', async ({ access, query }) => {
      if (access.principal.kind === 'key' && !access.principal.key.scopes.includes(SECOND_SCOPE)) {
        throw forbidden(`API key missing required scope: ${SECOND_SCOPE}`);
      }
      const file = await exportData(ctx, access.site!, query);
      return new Response(file.body, {
        headers: {
          'content-type': file.contentType,
          'content-disposition': `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`,
          'cache-control': 'no-store',
          ...access.rateHeaders,
        },
      });
    }, {
      scope: 'analytics:read',
      query: ExportQuery,
      response: reportErrorResponses,
      detail: {
        summary: 'Download events or visits as Parquet, CSV or NDJSON (a member session, or an API key with analytics:read and visitors:read)',
        description: 'Rows of the [from, to] days in the site time zone (default: everything stored), streamed (memory stays flat). Parquet is assembled from the stored files (their compressed column chunks copied, LZ4_RAW codec: DuckDB, Arrow/pyarrow, Polars, Spark 3.4+ read it), so it starts at once and goes at disk speed; CSV and NDJSON are written by DuckDB a stored month at a time, so the download starts after the first month. Times are UTC (ISO 8601 with Z in CSV and NDJSON, TIMESTAMPTZ in Parquet); visitor_id is the profile id of the visitors API. Parquet keeps types (DECIMAL revenue, MAP properties); CSV is RFC 4180 (CRLF, quoted as needed) with text cells starting with = + - @ prefixed by \' so spreadsheets do not run them, and properties as a JSON text. Rows come month by month (CSV, NDJSON) and stored file by file, each file in time order; they are not sorted across files.',
        responses: {
          200: {
            description: 'The file (Content-Disposition: attachment)',
            content: { 'application/vnd.apache.parquet': {}, 'text/csv': {}, 'application/x-ndjson': {} },
          },
        },
      } as any,
    });
