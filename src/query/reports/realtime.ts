// The last 30 minutes (contract §8 realtime): visitors, pageviews and the pages being viewed.
import type { Runner } from '../sql/dialect.ts';
import { planFor, type Scope } from '../plan/planner.ts';
import { finish, selectMetrics } from '../sql/metrics.ts';
import { one, rows } from '../run.ts';
import { sql } from '../../storage/sql.ts';

const TOP_PAGES = 10;

export async function realtime(db: Runner, scope: Scope) {
  const src = planFor(db, scope).events();
  const [t, pages] = await Promise.all([
    one(db, sql`SELECT ${selectMetrics(['visitors', 'pageviews'], 'events')} FROM ${src}`),
    rows(db, sql`SELECT path AS name, count(DISTINCT visitor_id) AS visitors FROM ${src}
      WHERE event_type = 'pageview' GROUP BY ALL ORDER BY visitors DESC, name ASC NULLS LAST LIMIT ${TOP_PAGES}`),
  ]);
  const m = finish(['visitors', 'pageviews'], t);
  return {
    visitors: m.visitors!,
    pageviews: m.pageviews!,
    pages: pages.map((p) => ({ name: (p.name as string | null) ?? '(none)', visitors: Number(p.visitors) })),
  };
}
