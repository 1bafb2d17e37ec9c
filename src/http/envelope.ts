// Success envelope and shared response schemas (contract §2).
import { z } from 'zod';

export const ok = <T>(data: T) => ({ success: true as const, data });

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const ErrorBody = z.object({ error: z.string() });

export const PaginationSchema = z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() });

/** Standard error responses every authenticated route may give, for the OpenAPI document. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  402: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  429: ErrorBody,
} as const;

/** Error answers of a route that runs a report query: the standard ones plus 503 when it outgrows DuckDB's memory budget (query/run.ts). */
export const reportErrorResponses = { ...errorResponses, 503: ErrorBody } as const;
