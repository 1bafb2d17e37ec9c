// The hand-written baseline of bench/query.ts: each endpoint's question as one plain DuckDB statement,
// written the direct way (filter straight on each table's own column, no engine, no registries), asking for
// what the endpoint's payload holds (totals for percentages, the previous period, time on page).
import type { Range } from '../src/query/parse/period.ts';
import { comparisonRange } from '../src/query/parse/period.ts';
import { tableSource } from '../src/storage/sources.ts';
import type { ParquetManifest } from '../src/storage/parquet-layout.ts';
import type { Fragment } from '../src/storage/sql.ts';

export type Question = {
  siteId: string; files: ParquetManifest; tz: string; range: Range; filter?: { column: string; value: string };
  events: Fragment; visits: Fragment;
};

const where = (q: Question) => (q.filter ? { sql: ` WHERE ${q.filter.column} = ?`, params: [q.filter.value] } : { sql: '', params: [] });
const andWhere = (q: Question, cond: string) => (q.filter ? { sql: ` WHERE ${cond} AND ${q.filter.column} = ?`, params: [q.filter.value] } : { sql: ` WHERE ${cond}`, params: [] });

/** Top 10 rows plus the total visitors their percentage needs. */
function visitBreakdown(column: string) {
  return (q: Question): Fragment => {
    const w = where(q);
    return {
      sql: `SELECT ${column}, count(DISTINCT visitor_id) AS visitors, count(*) AS visits, sum(pageviews) AS pageviews,
        avg(is_bounce::INTEGER) AS bounce, avg(duration) AS duration,
        (SELECT count(DISTINCT visitor_id) FROM ${q.visits.sql}${w.sql}) AS total
        FROM ${q.visits.sql}${w.sql} GROUP BY 1 ORDER BY visitors DESC, pageviews DESC LIMIT 10`,
      params: [...q.visits.params, ...w.params, ...q.visits.params, ...w.params],
    };
  };
}

export const HAND_WRITTEN: Record<string, (q: Question) => Fragment> = {
  stats(q) {
    const prev = comparisonRange(q.range, 'previous_period')!;
    const pv = tableSource(q.files, 'visits', q.siteId, prev);
    const pe = tableSource(q.files, 'events', q.siteId, prev);
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
    const pv = andWhere(q, "event_type = 'pageview'");
    return {
      sql: `WITH top AS (
          SELECT path, count(DISTINCT visitor_id) AS visitors, count(DISTINCT visit_id) AS visits, count(*) FILTER (WHERE event_type = 'pageview') AS pageviews
          FROM ${q.events.sql}${w.sql} GROUP BY 1 ORDER BY visitors DESC, pageviews DESC LIMIT 10),
        engagement AS (
          SELECT engaged_path AS path, avg(time_on_page) AS time_on_page, avg(scroll_depth) AS scroll_depth
          FROM ${q.events.sql}${pv.sql} AND engaged_path IN (SELECT path FROM top) GROUP BY 1)
        SELECT *, (SELECT count(DISTINCT visitor_id) FROM ${q.events.sql}${w.sql}) AS total FROM top LEFT JOIN engagement USING (path)`,
      params: [...q.events.params, ...w.params, ...q.events.params, ...pv.params, ...q.events.params, ...w.params],
    };
  },
  sources: visitBreakdown('source'),
  channels: visitBreakdown('channel'),
  devices: visitBreakdown('device'),
  locations: visitBreakdown('country'),
  revenue(q) {
    const prev = comparisonRange(q.range, 'previous_period')!;
    // An order id counts once, at its first occurrence even when that lies before the range (the purchases registry).
    const orders = (events: Fragment, fromUtc: string) => {
      const w = andWhere(q, 'revenue IS NOT NULL');
      return {
        sql: `(SELECT * FROM ${events.sql}${w.sql} AND (order_id IS NULL OR order_id NOT IN (SELECT order_id FROM purchases WHERE site_id = ? AND ts < ?::TIMESTAMP AND order_id IS NOT NULL))
          QUALIFY order_id IS NULL OR row_number() OVER (PARTITION BY order_id ORDER BY ts) = 1)`,
        params: [...events.params, ...w.params, q.siteId, fromUtc],
      };
    };
    const cur = orders(q.events, q.range.fromUtc);
    const before = orders(tableSource(q.files, 'events', q.siteId, prev), prev.fromUtc);
    const w = where(q);
    const pv = tableSource(q.files, 'visits', q.siteId, prev);
    return {
      sql: `SELECT 'current' AS period, currency, sum(revenue), count(*), count(DISTINCT visitor_id) FROM ${cur.sql} GROUP BY ALL
        UNION ALL SELECT 'previous', currency, sum(revenue), count(*), count(DISTINCT visitor_id) FROM ${before.sql} GROUP BY ALL
        UNION ALL SELECT 'visitors', NULL, NULL, count(DISTINCT visitor_id), NULL FROM ${q.visits.sql}${w.sql}
        UNION ALL SELECT 'previous visitors', NULL, NULL, count(DISTINCT visitor_id), NULL FROM ${pv.sql}${w.sql}`,
      params: [...cur.params, ...before.params, ...q.visits.params, ...w.params, ...pv.params, ...w.params],
    };
  },
  // The endpoint's whole answer: the totals and the top 10 pages of the last 30 minutes.
  realtime(q) {
    return {
      sql: `SELECT NULL AS path, count(DISTINCT visitor_id), count(*) FILTER (WHERE event_type = 'pageview') FROM ${q.events.sql}
        UNION ALL (SELECT path, count(DISTINCT visitor_id) AS v, NULL FROM ${q.events.sql} WHERE event_type = 'pageview'
          GROUP BY path ORDER BY v DESC, path LIMIT 10)`,
      params: [...q.events.params, ...q.events.params],
    };
  },
};
