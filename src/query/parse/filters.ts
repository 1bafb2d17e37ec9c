// The `filters` parameter (contract §7): parse, validate and resolve into typed filters, or a 400 naming the problem.
import { z } from 'zod';
import type { Database } from '../../storage/database.ts';
import { invalidQuery } from '../errors.ts';
import { goalMatch, type MatchDef } from '../sql/goals-match.ts';
import { DIMENSIONS } from './dimensions.ts';
import type { Filter, Target } from './filter-types.ts';
import { OPERATORS, type Operator } from './operators.ts';



const MAX_FILTERS = 20;
const MAX_VALUES = 100;
const PROP_PREFIX = 'prop:';

const RawFilter = z.object({
  dimension: z.string().min(1).max(200),
  operator: z.string(),
  value: z.union([z.string().max(2000), z.array(z.string().max(2000)).min(1).max(MAX_VALUES)]),
}).strict();

const fail = (why: string) => invalidQuery(`Invalid filters: ${why}`);

function target(dimension: string, index: number): Target {
  if (dimension === 'goal') return { kind: 'goal', goals: [] };
  if (dimension.startsWith(PROP_PREFIX)) {
    const key = dimension.slice(PROP_PREFIX.length);
    if (!key) throw fail(`filter ${index}: 'prop:' needs a property key, e.g. prop:plan`);
    return { kind: 'prop', key };
  }
  const d = DIMENSIONS.get(dimension);
  if (!d) throw fail(`filter ${index}: unknown dimension '${dimension}'`);
  return { kind: 'column', level: d.level, column: d.column, onEveryEvent: d.onEveryEvent ?? false };
}

/** Syntax and shape only; goals and regular expressions are checked against the database by resolveFilters. */
export function parseFilters(raw: string | unknown[] | undefined): Filter[] {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return [];
  let json: unknown = raw;
  if (typeof raw === 'string') {
    try {
      json = JSON.parse(raw);
    } catch {
      throw fail('not valid JSON (expected an array of {dimension, operator, value})');
    }
  }
  if (!Array.isArray(json)) throw fail('expected a JSON array of {dimension, operator, value}');
  if (json.length > MAX_FILTERS) throw fail(`at most ${MAX_FILTERS} filters`);
  return json.map((item, i) => {
    const parsed = RawFilter.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.length ? `'${issue.path.join('.')}' ` : '';
      throw fail(`filter ${i}: ${field}${issue.message}`);
    }
    const { dimension, operator, value } = parsed.data;
    if (!(OPERATORS as readonly string[]).includes(operator)) {
      throw fail(`filter ${i}: unknown operator '${operator}' (expected one of ${OPERATORS.join(', ')})`);
    }
    const t = target(dimension, i);
    if (t.kind === 'goal' && operator !== 'is' && operator !== 'is_not') throw fail(`filter ${i}: goal supports only is and is_not`);
    return { dimension, operator: operator as Operator, values: Array.isArray(value) ? value : [value], target: t };
  });
}

/** Regular expressions run in DuckDB (RE2 syntax): compile each once there so a bad one is a 400, not a 500. */
async function checkRegex(db: Database, pattern: string, index: number) {
  const why = await regexError(db, pattern);
  if (why !== null) throw fail(`filter ${index}: invalid regular expression '${pattern}' (${why})`);
}

/** Why DuckDB cannot compile `pattern`, or null when it can. */
export async function regexError(db: Database, pattern: string): Promise<string | null> {
  try {
    await db.query(`SELECT regexp_matches('', ?::VARCHAR) AS ok`, [pattern]);
    return null;
  } catch (e) {
    return String((e as Error).message).replace(/^.*Error: /, '');
  }
}

/** The site's goals among `ids` (any case; unknown ones left out): the goals feature owns the table and answers. */
export type GoalLookup = (siteId: string, ids: string[]) => Promise<{ id: string; type: string; path?: string | null; event_name?: string | null }[]>;

async function loadGoals(goals: GoalLookup, siteId: string, ids: string[], index: number): Promise<MatchDef[]> {
  const rows = await goals(siteId, ids);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id.toLowerCase()));
  if (missing !== undefined) throw fail(`filter ${index}: unknown goal '${missing}'`);
  return rows.map((r) => goalMatch(r));
}

/** Parse, then resolve goal ids to their definitions and validate regular expressions. */
export async function resolveFilters(db: Database, goals: GoalLookup, siteId: string, raw: string | unknown[] | undefined): Promise<Filter[]> {
  const filters = parseFilters(raw);
  for (const [i, f] of filters.entries()) {
    if (f.target.kind === 'goal') f.target.goals = await loadGoals(goals, siteId, f.values, i);
    if (f.operator === 'matches' || f.operator === 'not_matches') for (const v of f.values) await checkRegex(db, v, i);
  }
  return filters;
}
