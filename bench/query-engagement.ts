// Engagement bench (not a test): time on page / scroll depth of the top pages, grouped on the stored
// engaged_path versus the window over every visit it replaced (lag(path) per visit). Prints p50 of each.
// Usage: bun bench/query-engagement.ts --dir bench/out/query-data [--runs 5] [--memory 2GB]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from '../src/storage/database.ts';
import { ParquetManifest } from '../src/storage/parquet-layout.ts';
import { SiteCache } from '../src/sites/site-cache.ts';
import { tableSource } from '../src/storage/sources.ts';
import { engagementByPage } from '../src/query/plan/engagement-sources.ts';
import { eventsSource, type Scope } from '../src/query/plan/scope.ts';
import { resolveFilters } from '../src/query/parse/filters.ts';
import { goalsByIds } from '../src/goals/service.ts';
import { dayRange } from '../src/query/parse/period.ts';
import { addDays, addMonths, monthEnd, monthStart, todayIn } from '../src/query/parse/calendar.ts';
import { sql, type Fragment } from '../src/storage/sql.ts';

const { values: args } = parseArgs({
  options: { dir: { type: 'string' }, runs: { type: 'string', default: '5' }, memory: { type: 'string', default: '2GB' } },
});
if (!args.dir) throw new Error('--dir <data dir> is required');
const DIR = args.dir;
const TZ = 'Europe/Berlin';
const meta = JSON.parse(readFileSync(join(DIR, 'bench.json'), 'utf8')) as { orgId: string; siteId: string };

const db = await Database.open(DIR, 1, args.memory);
const manifest = new ParquetManifest(DIR);
await manifest.load(db);

/** The query this change replaced (src/query/engagement.ts before engaged_path). */
function windowed(scope: Scope, names: string[]): Fragment {
  const all = tableSource(scope.files, 'events', scope.site.id, scope.range);
  const viewed = sql`SELECT visit_id FROM ${eventsSource(scope)} WHERE event_type = 'pageview' AND path = ANY(${names}::VARCHAR[])`;
  return sql`SELECT name, avg(time_on_page) AS time_on_page, avg(scroll_depth) AS scroll_depth FROM (
      SELECT lag(path) OVER (PARTITION BY visit_id ORDER BY ts) AS name, time_on_page, scroll_depth
      FROM ${all} WHERE event_type = 'pageview' AND visit_id IN (${viewed})
    ) WHERE name = ANY(${names}::VARCHAR[]) AND (time_on_page IS NOT NULL OR scroll_depth IS NOT NULL)
    GROUP BY ALL`;
}

const site = (await SiteCache.load(db)).inOrg(meta.orgId, meta.siteId)!;
const today = todayIn(TZ);
const from90 = addDays(today, -120);
const scopes: [string, Scope][] = [
  ['12mo', { site, range: dayRange('12mo', addMonths(monthStart(today), -11), monthEnd(today), TZ), filters: [], files: manifest }],
  ['30d', { site, range: dayRange('30d', addDays(today, -29), today, TZ), filters: [], files: manifest }],
  ['90d+filter', { site, range: dayRange('custom', from90, addDays(from90, 89), TZ), filters: await resolveFilters(db, (siteId, ids) => goalsByIds(db, siteId, ids), site.id, '[{"dimension":"country","operator":"is","value":"US"}]'), files: manifest }],
];

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = async (q: Fragment) => { const t0 = performance.now(); const r = await db.query(q.sql, q.params); return { ms: performance.now() - t0, rows: r }; };
const round = (rows: any[]) => JSON.stringify(rows.map((r) => [r.name, Math.round(r.time_on_page ?? -1), Math.round(r.scroll_depth ?? -1)]).sort());

console.log('| scenario | window (before) p50 ms | stored engaged_path (after) p50 ms | same rows |');
console.log('|---|---:|---:|---|');
for (const [name, scope] of scopes) {
  const top = await db.query<{ path: string }>(
    `SELECT path FROM ${eventsSource(scope).sql} WHERE event_type = 'pageview' GROUP BY 1 ORDER BY count(DISTINCT visitor_id) DESC LIMIT 10`, eventsSource(scope).params);
  const names = top.map((r) => r.path);
  const before: number[] = [];
  const after: number[] = [];
  let same = true;
  for (let i = 0; i <= Number(args.runs); i++) {
    const b = await time(windowed(scope, names));
    const a = await time(engagementByPage(scope, 'path', names));
    same &&= round(a.rows) === round(b.rows);
    if (i > 0) { before.push(b.ms); after.push(a.ms); }
  }
  console.log(`| ${name} | ${p50(before).toFixed(0)} | ${p50(after).toFixed(0)} | ${same ? 'yes' : 'no (range-boundary reports)'} |`);
}
await db.close();
