// page/limit query parameters of visitors, timelines and goal completions: page ≥ 1, limit 1–100, default 50.
import { z } from 'zod';

const int = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((n) => n ?? fallback);

export const PageQuery = z.object({
  page: int(1, 1_000_000, 1).describe('Page number, from 1 (default 1)'),
  limit: int(1, 100, 50).describe('Results per page, 1–100 (default 50)'),
});
export type Page = z.output<typeof PageQuery>;
