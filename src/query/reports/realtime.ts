// The last 30 minutes (contract §8 realtime): visitors, pageviews and the pages being viewed. Two presets of
// the query API (parse/presets.ts) over the realtime range, run by its own stages (reports/query.ts): a
// realtime query counts its visitors on the events, who is active now (sql/query-parts.ts).
import type { Runner } from '../sql/dialect.ts';
import type { Scope } from '../plan/planner.ts';
import { realtimePresets } from '../parse/presets.ts';
import { answerQuery } from './query.ts';

const TOP_PAGES = 10;

export async function realtime(db: Runner, scope: Scope) {
  const p = realtimePresets(scope.filters, TOP_PAGES);
  const base = { site: scope.site, files: scope.files, dialect: scope.dialect };
  const [totals, pages] = await Promise.all([answerQuery(db, base, scope.range, [], p.totals), answerQuery(db, base, scope.range, [], p.pages)]);
  const [visitors, pageviews] = totals.results[0]!.metrics as number[];
  return {
    visitors: visitors!,
    pageviews: pageviews!,
    pages: pages.results.map((r) => ({ name: r.dimensions[0]!, visitors: r.metrics[0] as number })),
  };
}
