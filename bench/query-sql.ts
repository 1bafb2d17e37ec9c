// The hand-written baseline of bench/query.ts: each endpoint's question as one plain DuckDB statement,
// written the direct way (filter straight on each table's own column, no engine, no registries).
import type { Range } from '../src/query/period.ts';
import { comparisonRange } from '../src/query/period.ts';
import { tableSource } from '../src/storage/sources.ts';
import type { Fragment } from '../src/query/sql.ts';

export type Question = {
  siteId: string; tz: string; range: Range; filter?: { column: string; value: string };
  events: Fragment; visits: Fragment;
};

const where = (q: Question) => (q.filter ? { sql: ` WHERE ${q.filter.column} = ?`, params: [q.filter.value] } : { sql: '', params: [] });
const andWhere = (q: Question, cond: string) => (q.filter ? { sql: ` WHERE ${cond} AND ${q.filter.column} = ?`, params: [q.filter.value] } : { sql: ` WHERE ${cond}`, params: [] });

function visitBreakdown(column: string) {
  return (q: Question): Fragment => {
    const w = where(q);
    return {
      sql: `SELECT ${column}, count(DISTINCT visitor_id) AS visitors, count(*) AS visits, sum(pageviews) AS pageviews,
        avg(is_bounce::INTEGER) AS bounce, avg(duration) AS duration FROM ${q.visits.sql}${w.sql}
        GROUP BY 1 ORDER BY visitors DESC, pageviews DESC LIMIT 10`,
      params: [...q.visits.params, ...w.params],
    };
  };
}

export const HAND_WRITTEN: Record<string, (q: Question) => Fragment> = {
  stats(q) {
    const prev = comparisonRange(q.range, 'previous_period')!;
    const pv = tableSource('visits', q.siteId, prev);
    const pe = tableSource('events', q.siteId, prev);
    const w = where(q);
    return {
      sql: `SELECT * FROM
        (SELECT count(DISTINCT visitor_id), count(*), avg(is_bounce::INTEGER), avg(duration) FROM ${q.visits.sql}${w.sql}),
        (SELECT count(*) FILTER (WHERE event_type = 'pageview'), count(*) FROM ${q.events.sql}${w.sql}),
        (SELECT count(DISTINCT visitor_id), count(*), avg(is_bounce::INTEGER), avg(duration) FROM ${pv.sql}${w.sql}),
        (SELECT count(*) FILTER (WHERE event_type = 'pageview'), count(*) FROM ${pe.sql}${w.sql})`,
      params: [...q.visits.params, ...w.params, ...q.events.params, ...w.params, ...pv.params, ...w.params, ...pe.params, ...w.params],
    };
  },
  charts(q) {
    const unit = q.range.period === '12mo' ? 'month' : 'day';
    const w = where(q);
    return {
      sql: `WITH v AS (SELECT date_trunc('${unit}', timezone(?, start_ts::TIMESTAMPTZ)) AS b, count(DISTINCT visitor_id) AS visitors, count(*) AS visits,
          avg(is_bounce::INTEGER) AS bounce, avg(duration) AS duration FROM ${q.visits.sql}${w.sql} GROUP BY 1),
        e AS (SELECT date_trunc('${unit}', timezone(?, ts::TIMESTAMPTZ)) AS b, count(*) FILTER (WHERE event_type = 'pageview') AS pageviews FROM ${q.events.sql}${w.sql} GROUP BY 1)
        SELECT * FROM v FULL JOIN e USING (b) ORDER BY b`,
      params: [q.tz, ...q.visits.params, ...w.params, q.tz, ...q.events.params, ...w.params],
    };
  },
  pages(q) {
    const w = where(q);
    return {
      sql: `SELECT path, count(DISTINCT visitor_id) AS visitors, count(DISTINCT visit_id) AS visits, count(*) FILTER (WHERE event_type = 'pageview') AS pageviews
        FROM ${q.events.sql}${w.sql} GROUP BY 1 ORDER BY visitors DESC, pageviews DESC LIMIT 10`,
      params: [...q.events.params, ...w.params],
    };
  },
  sources: visitBreakdown('source'),
  channels: visitBreakdown('channel'),
  devices: visitBreakdown('device'),
  locations: visitBreakdown('country'),
  revenue(q) {
    const w = andWhere(q, 'revenue IS NOT NULL');
    return {
      sql: `SELECT currency, sum(revenue), count(*), count(DISTINCT visitor_id) FROM (
          SELECT * FROM ${q.events.sql}${w.sql} QUALIFY order_id IS NULL OR row_number() OVER (PARTITION BY order_id ORDER BY ts) = 1
        ) GROUP BY 1`,
      params: [...q.events.params, ...w.params],
    };
  },
  realtime(q) {
    return {
      sql: `SELECT count(DISTINCT visitor_id), count(*) FILTER (WHERE event_type = 'pageview') FROM ${q.events.sql}`,
      params: q.events.params,
    };
  },
};
