// Migration 0007's step: event files written before engaged_path/engaged_hostname existed are rewritten
// with them, computed as ingestion does (a pageview's engaged page is its visit's previous pageview), so
// every events file has one schema again.
import { join } from 'node:path';
import type { Tx } from '../database.ts';
import { ParquetManifest, sqlPath } from '../parquet-layout.ts';
import { writePartition } from '../parquet-writer.ts';

/**
 * Per file: a visit's events sit in one file unless the visit crossed a month boundary, where the first
 * pageview of its second month has no engaged page. The old files stay on disk unregistered and are removed
 * as orphans once the migration has committed (the manifest's sweep at start).
 */
export async function addEngagedColumns(tx: Tx, dataDir: string) {
  const files = await tx.query<{ path: string; site_id: string; month: string; rows: number; min_ts: string; max_ts: string }>(
    `SELECT path, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files WHERE tbl = 'events'`,
  );
  const manifest = new ParquetManifest(dataDir);
  for (const f of files) {
    const file = sqlPath(join(dataDir, f.path));
    const [has] = await tx.query(`SELECT 1 FROM parquet_schema(${file}) WHERE name = 'engaged_path'`);
    if (has) continue;
    // month and site are the directory's hive partition values, not columns of the events table.
    const engaged = (col: string) => `CASE WHEN event_type = 'pageview' THEN lag(${col}) OVER pv END`;
    await writePartition(tx, manifest, [], 'events', f.site_id, f.month,
      `SELECT * EXCLUDE (month, site), ${engaged('path')} AS engaged_path, ${engaged('hostname')} AS engaged_hostname
       FROM read_parquet(${file}) WINDOW pv AS (PARTITION BY visit_id, event_type ORDER BY ts)`,
      { rows: f.rows, min_ts: f.min_ts, max_ts: f.max_ts }, { rollup: false });
    await tx.exec('DELETE FROM parquet_files WHERE path = ?', [f.path]);
  }
}
