// An error as a finished Response, for routes served outside the framework (runtime DirectRoute): the same
// {"error": "..."} shape, status and headers that error-handler.ts gives every other route.
import { ApiError } from './errors.ts';
import { log } from '../log.ts';

export function errorResponse(error: unknown, request: Request): Response {
  if (error instanceof ApiError) return Response.json({ error: error.message }, { status: error.status, headers: error.headers });
  log.error('unhandled error', { path: new URL(request.url).pathname, error: String((error as any)?.stack ?? error) });
  return Response.json({ error: 'Internal server error' }, { status: 500 });
}
