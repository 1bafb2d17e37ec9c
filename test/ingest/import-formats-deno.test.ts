// The import formats on Deno: a gzipped access log and a Parquet GA4 export (node:zlib, streams and DuckDB's
// Parquet reader through the runtime's Node compatibility) give what they give on Bun.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';

const fx = withServer({ server: { runtime: 'deno' } });

const FIXTURES = join(import.meta.dir, '../fixtures/imports');

type Acct = Awaited<ReturnType<typeof setupAccount>>;
async function importBody(acct: Acct, format: string, body: BodyInit, key?: string) {
  const r = await fetch(`${fx.srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import?format=${format}`, {
    method: 'POST', headers: { authorization: `Bearer ${acct.token}`, ...(key ? { 'idempotency-key': key } : {}) }, body,
  });
  return { status: r.status, replayed: r.headers.get('idempotent-replayed'), body: JSON.parse(await r.text()) };
}

test('gzip access log, Parquet GA4 export and an idempotent retry on Deno', async () => {
  const acct = await setupAccount(fx.srv.url);
  const log = await importBody(acct, 'access-log', gzipSync(readFileSync(join(FIXTURES, 'access.log'))), 'log-1');
  expect(log.body.data).toMatchObject({ imported: 98, rejected: 2, skipped: 203 });
  expect((await importBody(acct, 'access-log', gzipSync(readFileSync(join(FIXTURES, 'access.log'))), 'log-1')).replayed).toBe('true');

  const file = join(tmpdir(), `ga4-deno-${Date.now()}.parquet`);
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT * REPLACE (event_timestamp::BIGINT AS event_timestamp) FROM read_json('${join(FIXTURES, 'ga4-events.ndjson')}', format = 'newline_delimited', ignore_errors = true)) TO '${file}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
  const ga4 = await importBody(acct, 'ga4', readFileSync(file));
  expect(ga4.body.data).toMatchObject({ imported: 162, rejected: 2, skipped: 200 });
  const stats = await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/stats?period=custom&from=2026-04-01&to=2026-05-04`, acct.token);
  expect(stats.body.data.metrics).toMatchObject({ visitors: 100, visits: 128, pageviews: 238 });
}, 90_000);
