// The rewrite behind a visitor's erasure, on real files with several row groups: the new file holds every
// other row in the same order, the row groups without the visitor are copied byte for byte (not re-encoded),
// and DuckDB reads the spliced file (types, statistics, nested columns) like the original.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/storage/database.ts';
import { ensureDir, partitionDir, ParquetManifest, type ParquetFile } from '../../src/storage/parquet-layout.ts';
import { rewriteWithout } from '../../src/storage/erase-rewrite.ts';
import { FULL_ROW_GROUP, parquetOptions } from '../../src/storage/parquet-writer.ts';
import { readFooter } from '../../src/storage/parquet-footer.ts';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const dir = mkdtempSync(join(tmpdir(), 'tern-erase-rewrite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SITE = '00000000-0000-4000-8000-000000000001';
const VISITOR = 7;

/** The byte ranges of each row group's column chunks, as a string per row group. */
async function groupBytes(path: string) {
  const fd = await open(path, 'r');
  try {
    const f = await readFooter(fd);
    const bytes = readFileSync(path);
    return f.rowGroups.map((g) => g.chunks.map((c) => Buffer.from(bytes.subarray(c.start, c.start + c.length)).toString('base64')).join('|'));
  } finally { await fd.close(); }
}

test('only the row groups holding the visitor are re-encoded; the rest are copied; rows keep their order', async () => {
  const db = await Database.open(dir, 2, '1GB');
  try {
    const manifest = new ParquetManifest(dir);
    const pdir = partitionDir(dir, 'events', SITE, '2026-03');
    ensureDir(pdir);
    const old = join(pdir, 'old.parquet');
    // 50,000 rows in row groups of 10,240; the visitor's rows only in the second and fourth group.
    await db.exec(`COPY (SELECT TIMESTAMP '2026-03-01' + INTERVAL (i) SECOND AS ts, '${SITE}' AS site_id,
        CASE WHEN i IN (10300, 10301, 19999, 31000) THEN ${VISITOR} ELSE 100 + i % 97 END AS visitor_id,
        'https://example.com/p' || (i % 13) AS url, CASE WHEN i % 5 = 0 THEN MAP {'k': 'v' || i} END AS props,
        (i % 1000)::DECIMAL(18,4) AS revenue
      FROM range(50000) t(i)) TO '${old}' (FORMAT parquet, COMPRESSION lz4, ROW_GROUP_SIZE 10240)`);
    const f: ParquetFile = { path: manifest.rel(old), tbl: 'events', site_id: SITE, month: '2026-03', rows: 50000, min_ts: '2026-03-01 00:00:00', max_ts: '2026-03-01 13:53:19' };
    const rows = (await db.query<{ r: number }>(`SELECT file_row_number AS r FROM read_parquet('${old}', file_row_number = true) WHERE visitor_id = ${VISITOR}`)).map((x) => x.r);
    expect(rows).toHaveLength(4);
    const next = await rewriteWithout(db, manifest, f, VISITOR, rows, { rows: 49996, min_ts: f.min_ts, max_ts: f.max_ts });
    const now = manifest.abs(next.path);

    const [before, after] = [await groupBytes(old), await groupBytes(now)];
    expect(before.length).toBeGreaterThanOrEqual(5);
    expect(after.length).toBe(before.length);
    // Groups 0, 2, 4…: the same bytes; 1 and 3: written again without the visitor.
    for (let g = 0; g < before.length; g++) {
      if (g === 1 || g === 3) expect(after[g]).not.toBe(before[g]);
      else expect(after[g]).toBe(before[g]);
    }
    // Every row and column, in file order: row i of the new file is the i-th of the old one without the visitor.
    const inOrder = (path: string, where = '') => db.query(`SELECT count(*) AS n, md5(string_agg(concat_ws('|', ts, site_id, visitor_id, url, props, revenue), ',' ORDER BY file_row_number)) AS h
      FROM read_parquet('${path}', file_row_number = true) ${where}`);
    const got = await inOrder(now);
    expect(got).toEqual(await inOrder(old, `WHERE visitor_id <> ${VISITOR}`));
    expect(got[0]!.n).toBe(49996);
    // A second reader agrees (footer offsets and sizes are Tern's own).
    const buf = readFileSync(now);
    const rowsBack = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer, compressors, columns: ['visitor_id', 'url'] });
    expect(rowsBack).toHaveLength(49996);
    expect(rowsBack.filter((r) => Number(r.visitor_id) === VISITOR)).toHaveLength(0);
    expect(rowsBack[10300]!.url).toBe('https://example.com/p' + (10302 % 13));
    // Statistics still prune: a filter on ts reads the right rows.
    expect(await db.query(`SELECT count(*) AS n, min(visitor_id) AS v FROM read_parquet('${now}') WHERE ts >= TIMESTAMP '2026-03-01 08:00:00'`))
      .toEqual([{ n: 50000 - 8 * 3600 - 1, v: 100 }]);
    expect(await db.query(`SELECT typeof(props) AS p, typeof(revenue) AS r FROM read_parquet('${now}') LIMIT 1`)).toEqual([{ p: 'MAP(VARCHAR, VARCHAR)', r: 'DECIMAL(18,4)' }]);
  } finally {
    await db.close();
  }
}, 60_000);

test('a run of touched row groups is written back in groups of the stored size, not merged into one', async () => {
  const db = await Database.open(dir, 2, '1GB');
  try {
    const manifest = new ParquetManifest(dir);
    const pdir = partitionDir(dir, 'events', SITE, '2026-04');
    ensureDir(pdir);
    const old = join(pdir, 'stored.parquet');
    const G = FULL_ROW_GROUP;
    const n = 2 * G + 1000;
    // Written as the server writes a merged file: groups G, G, 1000; the visitor in the first two.
    await db.exec(`COPY (SELECT TIMESTAMP '2026-04-01' + INTERVAL (i) SECOND AS ts, '${SITE}' AS site_id,
        CASE WHEN i IN (5, ${G + 5}) THEN ${VISITOR} ELSE 100 + i % 97 END AS visitor_id
      FROM range(${n}) t(i)) TO '${old}' (${parquetOptions('events', G)})`);
    const sizes = async (path: string) => { const fd = await open(path, 'r'); try { return (await readFooter(fd)).rowGroups.map((g) => Number(g.numRows)); } finally { await fd.close(); } };
    expect(await sizes(old)).toEqual([G, G, 1000]);
    const f: ParquetFile = { path: manifest.rel(old), tbl: 'events', site_id: SITE, month: '2026-04', rows: n, min_ts: '2026-04-01 00:00:00', max_ts: '2026-04-02 00:00:00' };
    const tally = { copied: 0, rewritten: 0 };
    // On one DuckDB thread, as the server's erasure runs.
    const next = await db.withThreads(1, () => rewriteWithout(db, manifest, f, VISITOR, [5, G + 5], { rows: n - 2, min_ts: f.min_ts, max_ts: f.max_ts }, tally));
    expect(tally).toEqual({ copied: 1, rewritten: 2 });
    // DuckDB closes a group once it holds G rows, so a group may run over by less than one vector (2,048 rows).
    const after = await sizes(manifest.abs(next.path));
    expect(after).toHaveLength(3);
    expect(after.reduce((a, b) => a + b)).toBe(n - 2);
    expect(after.slice(0, 2).every((x) => x >= G - 2048 && x < G + 2048)).toBe(true);
    expect(after[2]).toBe(1000);
    expect(await db.query(`SELECT count(*) AS n, count(*) FILTER (WHERE visitor_id = ${VISITOR}) AS v FROM read_parquet('${manifest.abs(next.path)}')`)).toEqual([{ n: n - 2, v: 0 }]);
  } finally {
    await db.close();
  }
}, 60_000);
