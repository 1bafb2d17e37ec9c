// Migration 0008's step: every site's stored events and visits get their first-occurrence marks, as
// compaction recomputes a stale site's (old files go as orphans at the next start).
import type { Tx } from '../database.ts';
import { ParquetManifest } from '../parquet-layout.ts';
import { rebuildMarks } from '../marks.ts';

export async function markStoredEvents(tx: Tx, dataDir: string) {
  const manifest = new ParquetManifest(dataDir);
  const sites = await tx.query<{ site_id: string }>(`SELECT DISTINCT site_id FROM parquet_files UNION SELECT DISTINCT site_id FROM visits`);
  for (const { site_id } of sites) await rebuildMarks(tx, manifest, [], site_id);
}
