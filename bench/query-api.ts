// Query API benchmark (not a test): ten analyst queries over POST /query on the query benchmarks' data
// (bench/query-store.ts), each timed against one hand-written DuckDB statement answering the same question over
// the same files, alternating run by run. Prints p50 per query and the ratio (targets: ≤ 1 s, ≤ 1.5×).
// Usage: bun bench/query-api.ts [--events 10000000] [--runs 5] [--memory 2GB] [--fresh]
import { parseArgs } from 'node:util';
import { compactStore, prepareStore, storeDir, STORE_TZ as TZ, type StoreMeta as Meta } from './query-store.ts';
import { runSummary, timeSideBySide, withServerAndCopy } from './side-by-side.ts';
import { tableSource } from '../src/storage/sources.ts';
import { type ParquetManifest } from '../src/storage/parquet-layout.ts';
import { dayRange, type Range } from '../src/query/parse/period.ts';
import { addDays, addMonths, monthEnd, monthStart, todayIn } from '../src/query/parse/calendar.ts';
import { bucketSql } from '../src/query/sql/buckets.ts';
import { sql, type Fragment } from '../src/storage/sql.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' }, fresh: { type: 'boolean', default: false },
    memory: { type: 'string', default: '2GB' },
  },
});
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const DATA_DIR = storeDir(EVENTS);

const today = todayIn(TZ);
const YEAR = { body: '12mo', range: dayRange('12mo', addMonths(monthStart(today), -11), monthEnd(today), TZ) };
const from90 = addDays(today, -89);
const DAYS90 = { body: [from90, today], range: dayRange('custom', from90, today, TZ) };
const DAYS30 = { body: '30d', range: dayRange('30d', addDays(today, -29), today, TZ) };

type Files = { siteId: string; files: ParquetManifest };
type Case = { name: string; body: Record<string, unknown>; hand: (f: Files, r: Range) => Fragment; range: Range };

const ev = (f: Files, r: Range) => tableSource(f.files, 'events', f.siteId, r);
const vs = (f: Files, r: Range) => tableSource(f.files, 'visits', f.siteId, r);

/** The ten questions, each as the /query body and as the statement an analyst would write by hand. */
const CASES: Case[] = [
  {
    name: 'source × country: visitors, visits, bounce rate (12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['visitors', 'visits', 'bounce_rate'], dimensions: ['visit:source', 'visit:country'], pagination: { limit: 100 } },
    hand: (f, r) => sql`SELECT source, country, count(DISTINCT visitor_id) v, count(*) n, avg(is_bounce::INT) b FROM ${vs(f, r)} GROUP BY ALL ORDER BY v DESC LIMIT 100`,
  },
  {
    name: 'page × device: visitors, pageviews, events (12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['visitors', 'pageviews', 'events'], dimensions: ['event:page', 'visit:device'], pagination: { limit: 100 } },
    hand: (f, r) => sql`SELECT path, device, count(DISTINCT visitor_id) v, count(*) FILTER (WHERE event_type = 'pageview') p, count(*) e FROM ${ev(f, r)} GROUP BY ALL ORDER BY v DESC LIMIT 100`,
  },
  {
    name: 'channel × month: visitors, visits, pageviews (12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['visitors', 'visits', 'pageviews'], dimensions: ['visit:channel', 'time:month'] },
    hand: (f, r) => sql`SELECT channel, date_trunc('month', timezone(${TZ}, start_ts::TIMESTAMPTZ)) m, count(DISTINCT visitor_id), count(*), sum(pageviews) FROM ${vs(f, r)} GROUP BY ALL ORDER BY 2, 1`,
  },
  {
    name: 'property breakdown: plan of Signup (12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['visitors', 'events'], dimensions: ['event:props:plan'], filters: [['is', 'event:name', ['Signup']]] },
    hand: (f, r) => sql`SELECT coalesce(props['plan'], '(none)') k, count(DISTINCT visitor_id) v, count(*) e FROM ${ev(f, r)} WHERE event_name = 'Signup' GROUP BY ALL ORDER BY v DESC`,
  },
  {
    name: 'hourly series, country filter (90 days)', range: DAYS90.range,
    body: { date_range: DAYS90.body, metrics: ['visitors', 'pageviews'], dimensions: ['time:hour'], filters: [['is', 'visit:country', ['US']]], include: { time_labels: true } },
    hand: (f, r) => {
      // Visitors per hour of their visit start, pageviews per hour of the event (as /analytics/charts counts them).
      const b = (c: string) => bucketSql('hour', r, c);
      return sql`SELECT * FROM (SELECT ${b('start_ts')} h, count(DISTINCT visitor_id) v FROM ${vs(f, r)} WHERE country = 'US' GROUP BY 1)
        FULL JOIN (SELECT ${b('ts')} h, count(*) p FROM ${ev(f, r)} WHERE country = 'US' AND event_type = 'pageview' GROUP BY 1) USING (h) ORDER BY h`;
    },
  },
  {
    name: 'source × country of visitors who purchased (has_done, 12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['visitors', 'visits', 'pageviews'], dimensions: ['visit:source', 'visit:country'], filters: [['has_done', ['is', 'event:name', ['Purchase']]]], pagination: { limit: 100 } },
    hand: (f, r) => sql`SELECT source, country, count(DISTINCT visitor_id) v, count(*), sum(pageviews) FROM ${vs(f, r)}
      WHERE visitor_id IN (SELECT visitor_id FROM ${ev(f, r)} WHERE event_name = 'Purchase') GROUP BY ALL ORDER BY v DESC LIMIT 100`,
  },
  {
    name: 'top line: seven metrics (12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['visitors', 'visits', 'pageviews', 'events', 'views_per_visit', 'bounce_rate', 'visit_duration'] },
    hand: (f, r) => sql`SELECT * FROM (SELECT count(DISTINCT visitor_id), count(*), avg(is_bounce::INT), avg(duration) FROM ${vs(f, r)}),
      (SELECT count(*) FILTER (WHERE event_type = 'pageview'), count(*) FROM ${ev(f, r)})`,
  },
  {
    name: 'browser × os: visitors, visits, duration (12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['visitors', 'visits', 'visit_duration'], dimensions: ['visit:browser', 'visit:os'] },
    hand: (f, r) => sql`SELECT browser, os, count(DISTINCT visitor_id) v, count(*), avg(duration) FROM ${vs(f, r)} GROUP BY ALL ORDER BY v DESC`,
  },
  {
    name: 'revenue, orders, AOV by country (12 mo)', range: YEAR.range,
    body: { date_range: YEAR.body, metrics: ['revenue', 'orders', 'average_order_value'], dimensions: ['visit:country'] },
    hand: (f, r) => sql`SELECT country, sum(revenue), count(*), avg(revenue) FROM (SELECT * FROM ${ev(f, r)} WHERE revenue IS NOT NULL
      QUALIFY order_id IS NULL OR row_number() OVER (PARTITION BY order_id ORDER BY ts) = 1) GROUP BY ALL ORDER BY 2 DESC`,
  },
  {
    name: 'pages under (country DE or source Google) (30 days)', range: DAYS30.range,
    body: { date_range: DAYS30.body, metrics: ['visitors', 'pageviews'], dimensions: ['event:page'], filters: ['or', [['is', 'visit:country', ['DE']], ['is', 'visit:source', ['Google']]]], order_by: [['pageviews', 'desc']], pagination: { limit: 50 } },
    hand: (f, r) => sql`SELECT path, count(DISTINCT visitor_id), count(*) FILTER (WHERE event_type = 'pageview') p FROM ${ev(f, r)}
      WHERE country = 'DE' OR visit_id IN (SELECT visit_id FROM ${vs(f, r)} WHERE source = 'Google') GROUP BY ALL ORDER BY p DESC LIMIT 50`,
  },
];

async function timeBoth(meta: Meta) {
  return withServerAndCopy(DATA_DIR, 'query-api-sql-copy', args.memory!, async (srv, copy) => {
    const out: { name: string; http: number; sql: number; rows: number }[] = [];
    const url = `${srv.url}/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}/query`;
    for (const c of CASES) {
      const stmt = c.hand({ siteId: meta.siteId, files: copy.manifest }, c.range);
      const request = () => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${meta.token}`, 'content-type': 'application/json' }, body: JSON.stringify(c.body) });
      const { http, sql: hand, body } = await timeSideBySide(c.name, RUNS, request, copy.db, stmt);
      const rows = body ? JSON.parse(body).data.meta.total_rows : 0;
      out.push({ name: c.name, http, sql: hand, rows });
      console.log(`${c.name}: HTTP ${http.toFixed(0)} ms, SQL ${hand.toFixed(0)} ms`);
    }
    return out;
  });
}

const meta = await prepareStore(EVENTS, args.fresh);
await compactStore(EVENTS);
const times = await timeBoth(meta);
console.log(runSummary(EVENTS, args.memory!, RUNS));
console.log('| query | rows | /query p50 | hand-written SQL p50 | ratio |');
console.log('|---|---:|---:|---:|---:|');
for (const t of times) console.log(`| ${t.name} | ${t.rows} | ${t.http.toFixed(0)} | ${t.sql.toFixed(0)} | ${(t.http / t.sql).toFixed(2)} |`);
