// Breakdowns of the visits count their candidates' visitors as bits per visitor (reports/visitor-masks.ts): the
// answers equal the distinct counts of /query's parts and, in process, of the count(DISTINCT) ranking they replace
// — with visitors changing source, campaign and medium between visits, the missing value as a group, more
// values than one mask (62) and than one statement (248) holds, and pages past the first.
import { beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { client } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';
import { Database } from '../../src/storage/database.ts';
import { ParquetManifest } from '../../src/storage/parquet-layout.ts';
import { scopeFor } from '../../src/query/parse/common-query.ts';
import { planFor } from '../../src/query/plan/planner.ts';
import { breakdown } from '../../src/query/reports/breakdown.ts';
import { rankGroups } from '../../src/query/reports/ranking.ts';
import { rankByMasks, MAX_MASKED } from '../../src/query/reports/visitor-masks.ts';
import { dimension } from '../../src/query/parse/dimensions.ts';
import type { Runner } from '../../src/query/sql/dialect.ts';

const fx = withServer({ accounts: { a: { timezone: 'UTC' } }, timeout: 60_000 });
const site = () => `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}`;
const MEDIUMS = ['email', 'cpc', 'social', null, null, null];
const SEARCH = ['https://www.google.com/', 'https://www.bing.com/', 'https://duckduckgo.com/', 'https://t.co/', 'https://www.facebook.com/'];

/** 400 visitors, 1–4 visits each a day apart; referrers from 5 big sources and ~300 small sites; some without. */
const LINES = Array.from({ length: 400 }, (_, v) => Array.from({ length: 1 + (v % 4) }, (_, i) => {
  const n = v * 7 + i * 13;
  const medium = MEDIUMS[n % MEDIUMS.length];
  const referrer = n % 5 === 0 ? undefined : n % 2 === 0 ? `https://blog${v % 300}-${i}.example.org/post` : SEARCH[n % SEARCH.length];
  const utm = medium ? `?utm_medium=${medium}&utm_campaign=c${n % 70}&utm_source=s${n % 9}` : '';
  return { url: `https://example.com/p${n % 4}${utm}`, timestamp: new Date(Date.UTC(2026, 3, 1 + i, 8, v % 60)).toISOString(), visitor_uid: `v${v}`, referrer };
})).flat();

beforeAll(async () => {
  await importAll(fx.srv.url, fx.a, LINES);
}, 60_000);

const BREAKDOWNS = [['channels', 'channel'], ['sources', 'source'], ['sources', 'referrer'], ['sources', 'utm_medium'], ['sources', 'utm_campaign'], ['sources', 'utm_source']] as const;
const RANGE = 'period=custom&from=2026-04-01&to=2026-04-30';

test('visitors per source, referrer, channel and UTM value equal /query\'s distinct counts, on every page', async () => {
  const api = client(fx.srv.url);
  let groups = 0;
  for (const [endpoint, dim] of BREAKDOWNS) {
    const exact = await api.post(`${site()}/query`, { date_range: ['2026-04-01', '2026-04-30'], metrics: ['visits', 'visitors', 'pageviews'], dimensions: [`visit:${dim}`], pagination: { limit: 1000 } }, fx.a.token);
    expect(exact.status).toBe(200);
    const none = dimension(dim).none;
    const want = exact.body.data.results.map((r: any) => ({ name: r.dimensions[0] ?? none, visitors: r.metrics[1], visits: r.metrics[0], pageviews: r.metrics[2] }))
      .sort((a: any, b: any) => b.visitors - a.visitors || b.pageviews - a.pageviews || (a.name === none ? 1 : b.name === none ? -1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    groups = Math.max(groups, want.length);
    for (const [page, limit] of [[1, 9], [2, 5], [3, 7], [1, 1000]]) {
      const r = await api.get(`${site()}/analytics/${endpoint}?${RANGE}&dimension=${dim}&page=${page}&limit=${limit}`, fx.a.token);
      expect(r.status).toBe(200);
      const got = r.body.data.results.map((x: any) => ({ name: x.name, visitors: x.visitors, visits: x.visits, pageviews: x.pageviews }));
      expect({ dim, page, limit, got }).toEqual({ dim, page, limit, got: want.slice((page! - 1) * limit!, page! * limit!) });
      expect(r.body.data.pagination.total).toBe(want.length);
    }
  }
  // More referrers than one statement counts: the candidates are split.
  expect(groups).toBeGreaterThan(MAX_MASKED);
}, 120_000);

test('the breakdown takes the masks path (no distinct count per group), or unfiltered sums the marks per value for sources and channels, and each equals the count(DISTINCT) ranking', async () => {
  await fx.srv.stop();
  const db = await Database.open(fx.srv.dataDir, 1, '256MB');
  try {
    const files = new ParquetManifest(fx.srv.dataDir);
    await files.load(db);
    const statements: string[] = [];
    const recording: Runner = { query: (text, params) => { statements.push(text); return db.query(text, params); } };
    const siteRow = { id: fx.a.site.id, timezone: 'UTC', currency: 'USD', created_at: '2026-01-01T00:00:00.000Z' };
    const scope = await scopeFor({ db, meta: db, files, goals: async () => [] }, siteRow, { period: 'custom', from: '2026-04-01', to: '2026-04-30' });
    const filtered = await scopeFor({ db, meta: db, files, goals: async () => [] }, siteRow,
      { period: 'custom', from: '2026-04-01', to: '2026-04-30', filters: JSON.stringify([{ dimension: 'page', operator: 'is_not', value: '/p3' }]) });
    for (const s of [scope, filtered]) {
      for (const [, dim] of BREAKDOWNS) {
        statements.length = 0;
        await breakdown(recording, s, dim, { page: 1, limit: 9 });
        // Unfiltered, sources and channels sum their marks per value instead (query/plan/value-marked-sources.ts).
        const summed = s === scope && (dim === 'source' || dim === 'channel');
        expect({ dim, masks: statements.some((t) => t.includes('bit_or(')), distinct: statements.some((t) => /count\(DISTINCT visitor_id\)/.test(t) && t.includes("GROUP BY")) })
          .toEqual({ dim, masks: !summed, distinct: false });
        const d = dimension(dim);
        const g = await planFor(db, s).groups('visits', d.column, d.few);
        expect({ dim, table: g.table }).toEqual({ dim, table: summed ? 'value_visits' : 'visits' });
        const metrics = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'] as const;
        for (const [offset, limit] of [[0, 9], [5, 5], [0, 1000]] as const) {
          const masked = await rankByMasks(db, g.from, d.column, metrics, offset, limit, g.scopeVisitors);
          const old = await rankGroups(db, g.from, d.column, metrics, 'visits', offset, limit, d.few || g.scopeVisitors !== undefined, g.scopeVisitors);
          const strip = (rs: any[]) => rs.map((r) => Object.fromEntries(metrics.map((m) => [m, Math.round(Number(r[m]) * 1e6) / 1e6]).concat([['name', r.name]])));
          expect({ dim, offset, rows: strip(masked.rows), groups: masked.groups, tally: masked.tally }).toEqual({ dim, offset, rows: strip(old.rows), groups: old.groups, tally: old.tally });
          if (summed) {
            const sums = await rankGroups(db, g.from, d.column, metrics, 'value_visits', offset, limit, true, g.scopeVisitors);
            expect({ dim, offset, rows: strip(sums.rows), groups: sums.groups, tally: sums.tally }).toEqual({ dim, offset, rows: strip(masked.rows), groups: masked.groups, tally: masked.tally });
          }
        }
      }
    }
  } finally {
    await db.close();
  }
}, 120_000);
