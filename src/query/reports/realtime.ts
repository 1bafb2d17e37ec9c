// The last 30 minutes (contract §8 realtime): visitors, pageviews and the pages being viewed. Two presets of
// the query API (parse/presets.ts) over the realtime range, composed by its own stages (reports/query.ts): a
// realtime query counts its visitors on the events, who is active now (sql/query-parts.ts).
import type { Runner } from '../sql/dialect.ts';
import type { Scope } from '../plan/planner.ts';
import { realtimePresets } from '../parse/presets.ts';
import { pageStatement } from './query.ts';
import { sql } from '../../storage/sql.ts';
import { rows } from '../run.ts';

const TOP_PAGES = 10;
const NONE = '(none)';

/**
 * The pages preset's order (visitors descending, "(none)" last, then the page as DuckDB compares text: its UTF-8
 * bytes), put back on the rows the statement already chose: a UNION ALL keeps no order, and one more ORDER BY
 * over it cost a sixth of the statement.
 */
const pageOrder = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(b.visitors) - Number(a.visitors)
  || Number(a.d0 === NONE) - Number(b.d0 === NONE) || Buffer.compare(Buffer.from(String(a.d0)), Buffer.from(String(b.d0)));

/**
 * Both presets in one statement: the report is polled, and on the small hot table a statement's fixed cost
 * (parse, bind, plan, a round trip through the worker pool) is most of its time.
 */
export async function realtime(db: Runner, scope: Scope) {
  const p = realtimePresets(scope.filters, TOP_PAGES);
  const base = { site: scope.site, files: scope.files, dialect: scope.dialect };
  const totals = pageStatement(db, base, scope.range, [], p.totals);
  const pages = pageStatement(db, base, scope.range, [], p.pages);
  const found = await rows(db, sql`SELECT 0 AS part, NULL AS d0, visitors, pageviews FROM (${totals.statement})
    UNION ALL SELECT 1 AS part, d0, visitors, NULL AS pageviews FROM (${pages.statement})`);
  const [visitors, pageviews] = totals.finish(found.filter((r) => Number(r.part) === 0))[0]!.metrics as number[];
  return {
    visitors: visitors!,
    pageviews: pageviews!,
    pages: pages.finish(found.filter((r) => Number(r.part) === 1).sort(pageOrder)).map((r) => ({ name: r.dimensions[0]!, visitors: r.metrics[0] as number })),
  };
}
