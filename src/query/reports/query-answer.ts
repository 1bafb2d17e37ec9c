// What the query API answers (contract §8): rows of dimension labels and metric values, totals, a comparison,
// and the range it covered; built by query.ts and its presets (query-presets.ts).
import type { rangeEcho } from '../parse/period.ts';

export type QueryRow = { dimensions: string[]; metrics: (number | null)[] };

export type QueryAnswer = {
  results: QueryRow[];
  totals?: Record<string, number | null>;
  comparison?: { range: ReturnType<typeof rangeEcho>; totals?: Record<string, number | null>; results: (QueryRow & { change: (number | null)[] })[] };
  meta: { range: ReturnType<typeof rangeEcho>; total_rows: number; time_labels?: string[] };
  query: Record<string, unknown>;
};
