// POST /api/v1/event, /api/v1/identify (no credential, CORS, raw capped body) and the session-only bulk import.
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { Auth } from '../module.ts';
import { clientIp } from '../http/client-ip.ts';
import { errorResponse } from '../http/error-response.ts';
import { socketAddress, type DirectRoute } from '../runtime/index.ts';
import { envelope, errorResponses, ok } from '../http/envelope.ts';
import { readCapped } from '../http/body.ts';
import { answerPatiently } from '../http/patient-response.ts';
import { badRequest } from '../http/errors.ts';
import { IMPORT_FORMAT_NAMES, type ImportFormatName } from './import-formats/index.ts';
import { idempotencyKey } from './import-idempotency.ts';
import { CORS_HEADERS, ingestError, type IngestService } from './service.ts';
import { EventDoc, IdentifyDoc, ImportLineDoc, parseEvent, parseIdentify } from './validate.ts';

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '86400',
};

// A Headers instance, built once: a Response copies it (half the cost of converting a plain object each time).
const ACCEPTED_HEADERS = new Headers({ ...CORS_HEADERS, 'content-type': 'text/plain;charset=utf-8' });

const ingestDoc = (summary: string, description: string, schema: z.ZodType, extra: Record<number, { description: string }> = {}) => ({
  summary,
  description,
  security: [],
  requestBody: {
    required: true,
    content: {
      'application/json': { schema: z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as any },
      'text/plain': { schema: { type: 'string', description: 'The same JSON, as navigator.sendBeacon sends it' } as any },
    },
  },
  responses: {
    202: { description: 'Accepted and durable: body `ok` (text/plain)' },
    400: { description: 'Malformed JSON or a field that fails validation' },
    404: { description: '`{"error":"Unknown site"}`' },
    413: { description: 'Body over 64 KiB' },
    ...extra,
  },
});

const ImportResultSchema = z.object({
  imported: z.number().int(),
  rejected: z.number().int(),
  skipped: z.number().int().optional().describe('Lines left out on purpose (formats other than ndjson): assets, bots, redirects, GA4 bookkeeping events'),
  errors: z.array(z.object({ line: z.number().int(), error: z.string() })),
});

// One init object too: the constructor only reads it.
const ACCEPTED = { status: 202, headers: ACCEPTED_HEADERS };
const accepted = () => new Response('ok', ACCEPTED);

/**
 * The tracker's two POST routes as runtime DirectRoutes (Bun serves them natively, Deno through the Elysia
 * routes below, which call the same functions): 202 once durable, else the error as a response.
 */
export const collectRoutes = (trustProxy: boolean, svc: () => IngestService): Record<'/api/v1/event' | '/api/v1/identify', DirectRoute> => {
  const origin = (request: Request, peer: () => string) => ({
    ip: clientIp(request, trustProxy, peer),
    userAgent: request.headers.get('user-agent') ?? '',
  });
  return {
    '/api/v1/event': answering((body, request, peer) => svc().event(parseEvent(body, ingestError), origin(request, peer))),
    '/api/v1/identify': answering((body) => svc().identify(parseIdentify(body, ingestError))),
  };
};

/**
 * Reads the capped body, then 202 once `act` settles (the event is durable, or a bot's was dropped), else the
 * error as a response. `act` is not async: its promise is awaited here directly, no promise adopting another.
 */
const answering = (act: (body: string, request: Request, peer: () => string) => Promise<unknown> | undefined): DirectRoute => async (request, peer) => {
  try {
    await act(await readCapped(request, ingestError), request, peer);
    return accepted();
  } catch (e) {
    return errorResponse(e, request);
  }
};

export const ingestRoutes = (auth: Auth, svc: () => IngestService, tracker: ReturnType<typeof collectRoutes>) => {
  const viaElysia = (route: DirectRoute) => ({ request }: { request: Request }) => route(request, () => socketAddress(request));
  // A 204 must have no body at all (Deno refuses even an empty string).
  const preflight = () => new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
  return new Elysia({ tags: ['Ingestion'] })
    .options('/api/v1/event', preflight, { detail: { hide: true } })
    .options('/api/v1/identify', preflight, { detail: { hide: true } })
    // parse: 'none' — the body is read here as a capped stream, never buffered whole by the framework.
    .post('/api/v1/event', viaElysia(tracker['/api/v1/event']), {
      parse: 'none',
      detail: ingestDoc('Record an event', 'Pageview or custom event from the tracker. `202 ok` means the event is on disk; analytics include it once the next load commits, within about 6 s (the server\'s `INGEST_LOAD_INTERVAL_MS`, default 5000, plus a second). Bot traffic is answered 202 and dropped.', EventDoc, {
        503: { description: 'The ingest log could not be written (full disk, I/O error): nothing was stored; `Retry-After: 5`' },
      }),
    })
    .post('/api/v1/identify', viaElysia(tracker['/api/v1/identify']), {
      parse: 'none',
      detail: ingestDoc('Identify a visitor', 'Attaches user_id (shown as external_id), name, email, avatar (avatar_url) and custom attributes to the visitor of visitor_uid, creating it if needed. A later identify overwrites the fields it carries; `custom` keys are merged.', IdentifyDoc),
    })
    .use(auth)
    .post('/api/v1/organizations/:orgId/sites/:siteId/events/import', ({ access, request, query, set }) => {
      const format = importFormat(query.format);
      const key = idempotencyKey(request.headers.get('idempotency-key'), query.import_id);
      let bodyRead!: () => void;
      const read = new Promise<void>((r) => (bodyRead = r));
      const work = svc().import(access.site!, request.body, bodyRead, { format, key }).then(({ result, replayed }) => {
        if (replayed) set.headers['idempotent-replayed'] = 'true';
        return ok(result);
      });
      // A generator (spaces, then the JSON) when the import outlasts 5 s: Elysia streams it; the schema documents the JSON.
      return answerPatiently(work, read) as unknown as Response;
    }, {
      session: true,
      parse: 'none',
      query: z.object({
        format: z.string().optional().describe(`Body format: ${IMPORT_FORMAT_NAMES.join(', ')} (default ndjson)`),
        import_id: z.string().optional().describe('Idempotency key, as the Idempotency-Key header'),
      }),
      response: { 200: envelope(ImportResultSchema), ...errorResponses },
      detail: {
        summary: 'Bulk-import events (NDJSON, GA4 BigQuery export, Umami CSV, access logs)',
        requestBody: {
          required: true,
          content: {
            'application/x-ndjson': { schema: { description: 'format=ndjson: one JSON object per line; format=ga4: the rows of GA4\'s BigQuery events_* tables as newline-delimited JSON', ...(z.toJSONSchema(ImportLineDoc) as any) } },
            'application/vnd.apache.parquet': { schema: { type: 'string', format: 'binary', description: 'format=ga4: an events_* table exported as Parquet' } },
            'text/csv': { schema: { type: 'string', description: 'format=umami: Umami\'s data export (website_event with its session columns), header row first' } },
            'text/plain': { schema: { type: 'string', description: 'format=access-log: nginx/Apache combined log lines, plain or gzip' } },
          },
        },
        description:
          'The body is one of the formats of `format`: `ndjson` (default) — one event per line: the /event fields plus `timestamp` (ISO 8601 with Z or offset, required), `ip` and `user_agent` (optional), `site_id` ignored (the path names the site), no bot filtering; ' +
          '`ga4` — Google Analytics 4\'s BigQuery export of the events_* tables (NDJSON, or Parquet); `umami` — Umami\'s CSV data export; `access-log` — nginx/Apache combined logs, HTML pageviews only (assets, non-GET, statuses other than 200/304 and bots skipped). ' +
          'Any body may be gzip-compressed (detected by its magic bytes). Lines are enriched like live events and sessionized with the visitor\'s stored visits: an event within 30 minutes of a stored visit of its visitor joins it, so a history imported in pieces gives the same visits as imported whole. ' +
          'Errors name the line (for Parquet, the row; for CSV, the line a record starts on); at most 100 are listed. Other formats than ndjson also answer `skipped`, the lines left out on purpose. ' +
          'An `Idempotency-Key` header (or `import_id`), 1–255 printable characters, makes a retry answer the first result (header `Idempotent-Replayed: true`) instead of importing again; while the first still runs, a duplicate gets 409. A failed request imported nothing and stores nothing. ' +
          'Several requests may be in flight: a site\'s imports load one at a time, in the order their requests reached the server (requests sent at once on separate connections may reach it in either order; see docs/data.md). ' +
          'The body is streamed, so files of millions of lines are fine. An import still working after 5 s answers 200 at once and streams spaces until its JSON result follows (valid JSON either way), so no proxy or idle timeout cuts it.',
      },
    });
};

/** The `format` query value, checked. */
function importFormat(v: string | undefined): ImportFormatName {
  if (v === undefined || v === '') return 'ndjson';
  if ((IMPORT_FORMAT_NAMES as string[]).includes(v)) return v as ImportFormatName;
  throw badRequest(`Unknown import format '${v}': expected one of ${IMPORT_FORMAT_NAMES.join(', ')}`);
}
