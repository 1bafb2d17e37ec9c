// A visitor whose events are spread over 100+ small Parquet files, read by concurrent timeline requests of every
// page: the shape of issue 17.3 (bench/timeline-window-repro.ts reproduces the DuckDB error itself) answers 200.
import { beforeAll, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';

const fx = withServer({ accounts: { a: { scopes: ['visitors:read'] } } });

const IMPORTS = 4;
const MONTHS = 36;

beforeAll(async () => {
  // Each import writes one Parquet file per month it touches: 4 imports × 36 months, 1–3 events per file.
  for (let i = 0; i < IMPORTS; i++) {
    const lines: string[] = [];
    for (let m = 0; m < MONTHS; m++) {
      for (let e = 0; e <= (m + i) % 3; e++) {
        const ts = new Date(Date.UTC(2023, m, 1 + i * 5 + e, 12)).toISOString();
        lines.push(JSON.stringify({ site_id: fx.a.site.public_id, url: `https://example.com/m${m}/i${i}/e${e}`, visitor_uid: 'many-files', timestamp: ts }));
        // Other visitors share the files, so the visitor filter leaves some row groups empty.
        lines.push(JSON.stringify({ site_id: fx.a.site.public_id, url: `https://example.com/other`, visitor_uid: `other-${m % 5}`, timestamp: ts }));
      }
    }
    const r = await fx.a.api.call('POST', `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/events/import`, {
      token: fx.a.token, raw: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data ?? r.body).toMatchObject({ rejected: 0 });
  }
}, 120_000);

test('concurrent timelines over 100+ small files: every page 200 with the right total, then the server still answers', async () => {
  const files = readdirSync(join(fx.srv.dataDir, 'parquet', 'events', `site=${fx.a.site.id}`), { recursive: true }).filter((f) => String(f).endsWith('.parquet'));
  expect(files.length).toBeGreaterThanOrEqual(100);
  const base = `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}/visitors`;
  const visitor = (await fx.a.api.get(`${base}?search=many-files`, fx.a.key)).body.data.visitors[0];
  let expected = 0;
  for (let i = 0; i < IMPORTS; i++) for (let m = 0; m < MONTHS; m++) expected += ((m + i) % 3) + 1;
  for (let round = 0; round < 4; round++) {
    const pages = [1, 2, 3, 5, 50, 1, 2, 100];
    const rs = await Promise.all(pages.map((p) => fx.a.api.get(`${base}/${visitor.id}/timeline?page=${p}&limit=${p === 100 ? 1 : 50}`, fx.a.key)));
    rs.forEach((r, i) => {
      expect(r.status).toBe(200);
      expect(r.body.data.pagination.total).toBe(expected);
      const page = pages[i]!;
      const limit = page === 100 ? 1 : 50;
      expect(r.body.data.events.length).toBe(Math.max(0, Math.min(limit, expected - (page - 1) * limit)));
    });
  }
  expect(fx.srv.logs()).not.toContain('unhandled error');
}, 120_000);
