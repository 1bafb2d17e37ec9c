// The Parquet export is assembled from stored column chunks with a footer Tern writes itself, so it is read
// back here by a second, independent reader (hyparquet, pure JavaScript) besides DuckDB: the footer's offsets,
// sizes and row counts, every row group and every value must agree, for events and for visits.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';
import { fixtureLines, importFixture } from '../helpers/site-data.ts';

const fx = withServer({ accounts: { acct: {} } });
const tmp = mkdtempSync(join(tmpdir(), 'tern-export-pq-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  await importFixture(fx.acct.api, fx.acct.token, fx.acct.orgId, fx.acct.site.id, fixtureLines({ visitors: 30, months: 4, eventsPerVisit: 3, seed: 3 }));
});

async function download(table: string) {
  const r = await fetch(`${fx.srv.url}/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}/export?table=${table}&format=parquet`, { headers: { authorization: `Bearer ${fx.acct.token}` } });
  expect(r.status).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
}

/** A value as text both readers agree on: times as epoch ms, numbers as numbers, maps as sorted pairs. */
function plain(v: any): any {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map((e) => (e && typeof e === 'object' && 'key' in e ? [e.key, e.value] : plain(e))).sort();
  if (typeof v === 'object' && !(v instanceof Uint8Array)) return Object.entries(v).sort();
  return v;
}

async function duckRows(bytes: Uint8Array) {
  const file = join(tmp, `${crypto.randomUUID()}.parquet`);
  writeFileSync(file, bytes);
  const inst = await DuckDBInstance.create(':memory:');
  try {
    const c = await inst.connect();
    return (await c.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJS();
  } finally { inst.closeSync(); }
}

for (const table of ['events', 'visits']) {
  test(`${table}: hyparquet reads the spliced file's footer and every value as DuckDB does`, async () => {
    const bytes = await download(table);
    const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const groupRows = meta.row_groups.reduce((n, g) => n + Number(g.num_rows), 0);
    expect(Number(meta.num_rows)).toBe(groupRows);
    expect(meta.row_groups.length).toBeGreaterThan(1); // several stored files (months) spliced, plus DuckDB's piece
    for (const g of meta.row_groups) {
      for (const c of g.columns) {
        const m = c.meta_data!;
        const start = Number(m.dictionary_page_offset ?? m.data_page_offset);
        expect(start + Number(m.total_compressed_size)).toBeLessThanOrEqual(bytes.length);
      }
    }
    const ours = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, compressors });
    const duck = await duckRows(bytes);
    expect(ours.length).toBe(duck.length);
    expect(ours.length).toBe(table === 'events' ? 30 * 4 * 3 : 30 * 4);
    const cols = Object.keys(duck[0]!);
    expect(Object.keys(ours[0]!)).toEqual(cols);
    for (let i = 0; i < ours.length; i++) {
      for (const c of cols) expect([c, plain(ours[i]![c])]).toEqual([c, plain(duck[i]![c])]);
    }
  }, 60_000);
}
