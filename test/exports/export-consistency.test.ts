// An export reads the file list and the hot tables of one state, and keeps the files it lists on disk while it
// streams: imports load closed visits hot and their compaction moves them to a new Parquet file while exports
// run, and every export still holds each stored visit exactly once. TERN_TEST_STATEMENT_DELAY_MS holds each
// export piece between listing its files and running its COPY, so moves fall into that window; before, such an
// export missed the visits a move took out of the hot table (listed neither in its files nor still hot).
import { expect, test } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { startServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';

const BATCHES = 16;
const PER_BATCH = 15;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

test('exports hold every stored visit once while imports load and compaction moves visits to Parquet', async () => {
  const srv = await startServer({ env: { TERN_TEST_STATEMENT_DELAY_MS: '60', LOG_LEVEL: 'debug' } });
  try {
    const acct = await setupAccount(srv.url, { scopes: ['analytics:read', 'visitors:read'] });
    const base = `${srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
    const now = Date.now();
    let stored = 0;
    let seen = 0;
    let stop = false;
    const bad: string[] = [];
    let exports = 0;
    /** The visit ids of one export of the visits table. */
    const visitIds = async (format: 'csv' | 'parquet'): Promise<string[]> => {
      const r = await fetch(`${base}/export?table=visits&format=${format}`, { headers: { authorization: `Bearer ${acct.key}` } });
      expect(r.status).toBe(200);
      if (format === 'csv') {
        return (parse(await r.text(), { columns: true }) as { visit_id: string }[]).map((x) => x.visit_id);
      }
      const buf = await r.arrayBuffer();
      const rows = await parquetReadObjects({ file: buf, metadata: parquetMetadata(buf), columns: ['visit_id'], compressors });
      return rows.map((x) => String(x.visit_id));
    };
    const reader = async (format: 'csv' | 'parquet', i: number) => {
      await Bun.sleep(i * 50);
      while (!stop) {
        // Nothing is deleted: every visit an export that ended before this one began held is in this one too.
        const before = Math.max(stored, seen);
        const ids = await visitIds(format);
        // One import at a time: its visits may be visible before it answers.
        const after = stored + PER_BATCH;
        exports++;
        seen = Math.max(seen, ids.length);
        if (new Set(ids).size !== ids.length) bad.push(`${format}: ${ids.length - new Set(ids).size} visits twice`);
        if (ids.length < before || ids.length > after) bad.push(`${format}: ${ids.length} visits, ${before}–${after} stored`);
      }
    };
    const readers = Promise.all([reader('csv', 0), reader('parquet', 1), reader('csv', 2), reader('parquet', 3)]);
    for (let b = 0; b < BATCHES; b++) {
      // Closed one-event visits: the import loads them hot, then its compaction moves them to a file.
      await importAll(srv.url, acct, Array.from({ length: PER_BATCH }, (_, i) => ({
        timestamp: new Date(now - 86_400_000 - (b * PER_BATCH + i) * 3_600_000).toISOString(), url: 'https://example.com/x',
        event_type: 'pageview', visitor_uid: `v${b}-${i}`, ip: '198.51.100.3', user_agent: UA,
      })));
      stored += PER_BATCH;
      await Bun.sleep(30);
    }
    stop = true;
    await readers;
    expect(exports).toBeGreaterThan(10);
    expect(bad).toEqual([]);
    // Pieces a publication crossed were written again in a pinned snapshot.
    expect(srv.logs().split('\n').filter((l) => l.includes('answered again in a pinned snapshot')).length).toBeGreaterThan(0);
    expect(await visitIds('csv')).toHaveLength(BATCHES * PER_BATCH);
    expect(await visitIds('parquet')).toHaveLength(BATCHES * PER_BATCH);
  } finally {
    await srv.cleanup();
  }
}, 300_000);
