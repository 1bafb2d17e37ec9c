// QueryError: a report the engine refuses (bad parameters) or cannot answer (over its memory budget).
// The engine knows no HTTP: the server's error handler maps each kind to a status (400, 503).
export type QueryErrorKind = 'invalid' | 'too-large';

export class QueryError extends Error {
  constructor(readonly kind: QueryErrorKind, message: string) {
    super(message);
  }
}

export const invalidQuery = (message: string) => new QueryError('invalid', message);
