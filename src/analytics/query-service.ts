// POST /query → the engine: the site's goals (event:goal names them), parse, regular expressions compiled, run.
import type { Site } from '../sites/model.ts';
import type { QuerySources } from '../query/parse/common-query.ts';
import { parseQuery } from '../query/parse/query-parse.ts';
import { checkRegexes, type SiteGoal } from '../query/parse/filter-tree.ts';
import { regexError } from '../query/parse/filters.ts';
import { runQuery } from '../query/reports/query.ts';

/** `goals`: the site's current goals, from their owner (goals/service.ts). */
export async function customQuery(src: QuerySources, goals: () => Promise<SiteGoal[]>, site: Site, body: unknown) {
  // Only event:goal needs the goals: any other body is spared the lookup (one statement fewer per query).
  const known = JSON.stringify(body ?? null).includes('event:goal') ? await goals() : [];
  const q = parseQuery(body, known);
  await checkRegexes(q.filter, (p) => regexError(src.db, p));
  return runQuery(src, site, known, q);
}
