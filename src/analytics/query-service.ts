// POST /query → the engine: the site's goals (event:goal names them), parse, regular expressions compiled, run.
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { parseQuery } from '../query/parse/query-parse.ts';
import { checkRegexes } from '../query/parse/filter-tree.ts';
import { regexError } from '../query/parse/filters.ts';
import { runQuery } from '../query/reports/query.ts';
import { listGoals } from '../goals/service.ts';

export async function customQuery(ctx: Pick<AppContext, 'db' | 'query'>, site: Site, body: unknown) {
  const goals = await listGoals(ctx.db, site.id);
  const q = parseQuery(body, goals);
  await checkRegexes(q.filter, (p) => regexError(ctx.db, p));
  return runQuery(ctx.query.db, ctx.query.files, site, goals, q);
}
