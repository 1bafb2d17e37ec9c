// One error path: every failure leaves as {"error": "..."} with the right status and no internals.
import { Elysia } from 'elysia';
import { ApiError } from './errors.ts';
import { QueryError, type QueryErrorKind } from '../query/errors.ts';
import { log } from '../log.ts';

function describeValidation(error: any): string {
  const first = error?.all?.[0] ?? error?.valueError;
  const where: string = error?.type ?? 'request';
  const path: string = first?.path
    ? String(first.path).replace(/^\//, '').replace(/\//g, '.')
    : Array.isArray(first?.issues?.[0]?.path) ? first.issues[0].path.join('.') : '';
  const detail: string = first?.summary ?? first?.message ?? 'is invalid';
  if (path && path !== 'root') return `Invalid ${where} field '${path}': ${detail}`;
  return `Invalid ${where}: ${detail}`;
}

/**
 * A response that fails its own schema is our bug, not the client's: 500. The log names the fields
 * only: the rejected value could hold a secret shown once (a new API key, a session token).
 */
function responseFault(error: any, request: Request, set: { status?: number | string }) {
  const issues = (error?.all ?? []).map((i: any) => ({ path: i?.path, message: i?.message ?? i?.summary }));
  log.error('response failed its schema', { path: new URL(request.url).pathname, issues });
  set.status = 500;
  return { error: 'Internal server error' };
}

/** The query engine's refusals: bad report parameters are the client's; a report over the memory budget is a 503. */
const QUERY_STATUS: Record<QueryErrorKind, number> = { invalid: 400, 'too-large': 503 };

export const errorHandler = new Elysia({ name: 'error-handler' }).onError({ as: 'global' }, ({ code, error, set, request }) => {
  if (error instanceof ApiError) {
    set.status = error.status;
    Object.assign(set.headers, error.headers);
    return { error: error.message };
  }
  if (error instanceof QueryError) {
    set.status = QUERY_STATUS[error.kind];
    return { error: error.message };
  }
  switch (code) {
    case 'VALIDATION':
      if ((error as any)?.type === 'response') return responseFault(error, request, set);
      set.status = 400;
      return { error: describeValidation(error) };
    case 'PARSE':
      set.status = 400;
      return { error: 'Malformed request body: expected valid JSON' };
    case 'NOT_FOUND':
      set.status = 404;
      return { error: 'Not found' };
    case 'INVALID_COOKIE_SIGNATURE':
    case 'INVALID_FILE_TYPE':
      set.status = 400;
      return { error: 'Bad request' };
  }
  const status = (error as any)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    set.status = status;
    return { error: status === 413 ? 'Request body too large' : 'Bad request' };
  }
  log.error('unhandled error', { path: new URL(request.url).pathname, error: String((error as any)?.stack ?? error) });
  set.status = 500;
  return { error: 'Internal server error' };
});
