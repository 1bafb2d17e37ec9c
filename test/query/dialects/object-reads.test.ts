// ClickHouse (chdb) reading Tern's uploaded partitions in object storage (s3rver) with s3(): the same fixture
// on a DuckDB server reading its files locally and on a ClickHouse server with CLICKHOUSE_READ=objects, whose
// queries read only the objects its manifest.json lists; the answers are identical.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { setupAccount } from '../../helpers/api.ts';
import { importAll } from '../../helpers/import.ts';
import { startS3, type TestS3 } from '../../helpers/s3rver.ts';
import { CHDB, sayIfNoChdb } from '../../helpers/chdb.ts';
import { FIXTURE } from '../../analytics/fixture.ts';

sayIfNoChdb('test/query/dialects/object-reads.test.ts');

type Side = { srv: TestServer; get(path: string, params?: Record<string, unknown>): Promise<{ status: number; body: any }>; post(path: string, body: unknown): Promise<{ status: number; body: any }> };

async function side(env: Record<string, string>): Promise<Side> {
  const srv = await startServer({ env });
  const acc = await setupAccount(srv.url, { timezone: 'Europe/Berlin', scopes: ['analytics:read'] });
  const sitePath = `/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}`;
  await acc.api.patch(sitePath, { currency: 'EUR' }, acc.token);
  await importAll(srv.url, acc, FIXTURE);
  return {
    srv,
    get: (path, params = {}) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) q.set(k, typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
      return acc.api.get(`${sitePath}/${path}?${q}`, acc.key);
    },
    post: (path, body) => acc.api.call('POST', `${sitePath}/${path}`, { body, token: acc.key }),
  };
}

let s3: TestS3;
let duck: Side;
let objects: Side;
const OCTOBER = { period: 'custom', from: '2025-10-01', to: '2025-10-31' };
const WEEK = { period: '7d', date: '2025-10-26' };

beforeAll(async () => {
  if (!CHDB) return;
  s3 = await startS3();
  [duck, objects] = await Promise.all([
    side({}),
    side({
      ANALYTICS_ENGINE: 'clickhouse', CLICKHOUSE_URL: `chdb:${mkdtempSync(join(tmpdir(), 'tern-chdb-'))}`, CLICKHOUSE_READ: 'objects',
      ...s3.env('node-b'), STORAGE_DELETE_GRACE_SECONDS: '60',
    }),
  ]);
  // The objects count once uploaded and listed (visits once compaction sealed them): wait for all of them.
  const want = JSON.stringify((await duck.get('analytics/stats', OCTOBER)).body.data.metrics);
  for (let i = 0; i < 150; i++) {
    const got = await objects.get('analytics/stats', OCTOBER);
    if (got.status === 200 && JSON.stringify(got.body.data.metrics) === want) break;
    await new Promise((r) => setTimeout(r, 300));
  }
}, 120_000);
afterAll(async () => { await Promise.all([duck?.srv.cleanup(), objects?.srv.cleanup()]); await s3?.cleanup(); });

async function same(path: string, params: Record<string, unknown>) {
  const [a, b] = await Promise.all([duck.get(path, params), objects.get(path, params)]);
  expect(a.status).toBe(200);
  expect({ status: b.status, body: b.body }).toEqual({ status: 200, body: a.body });
}

describe.skipIf(!CHDB)('ClickHouse over the objects in the bucket answers as DuckDB over its local files', () => {
  test('the bucket holds the files and the manifest ClickHouse reads', async () => {
    const keys = (await s3.client('node-b').list()).map((o) => o.key);
    expect(keys).toContain('manifest.json');
    expect(keys.some((k) => /events\/site=[^/]+\/month=2025-10\/[^/]+\.parquet$/.test(k))).toBe(true);
    expect(keys.some((k) => /visits\/site=[^/]+\/month=2025-10\/[^/]+\.parquet$/.test(k))).toBe(true);
  });

  test('stats, charts, breakdowns, revenue and /query', async () => {
    const filters = [[], [{ dimension: 'country', operator: 'is', value: 'US' }], [{ dimension: 'page', operator: 'contains', value: 'blog' }]];
    for (const f of filters) {
      for (const p of [WEEK, OCTOBER]) {
        await same('analytics/stats', { ...p, filters: f });
        await same('analytics/charts', { ...p, filters: f });
        await same('analytics/revenue', { ...p, filters: f });
        for (const [endpoint, dimension] of [['pages', 'page'], ['pages', 'entry_page'], ['sources', 'source'], ['devices', 'browser'], ['locations', 'country']]) {
          await same(`analytics/${endpoint}`, { ...p, filters: f, dimension });
        }
      }
    }
    for (const body of [
      { metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'], dimensions: ['visit:source', 'event:page'] },
      { metrics: ['visitors', 'events'], dimensions: ['event:props:plan', 'time:day'] },
    ]) {
      const b = { date_range: ['2025-10-01', '2025-10-31'], ...body };
      const [x, y] = await Promise.all([duck.post('query', b), objects.post('query', b)]);
      expect(x.status).toBe(200);
      expect({ status: y.status, body: y.body }).toEqual({ status: 200, body: x.body });
    }
  }, 240_000);
});
