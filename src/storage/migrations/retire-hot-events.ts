// Migration 0006's step: rows left in the hot events table (written by servers from before events went
// straight to Parquet) move to Parquet files per site and month, in the migration's transaction.
import type { Tx } from '../database.ts';
import { ParquetManifest } from '../parquet-layout.ts';
import { writePartitions } from '../parquet-writer.ts';

/** A failed migration leaves its files unregistered: the next start removes them as orphans. */
export async function moveHotEvents(tx: Tx, dataDir: string) {
  // The manifest is loaded after migrations, from parquet_files: these files need not be published here.
  await writePartitions(tx, new ParquetManifest(dataDir), [], 'events', 'events');
  await tx.exec('DELETE FROM events');
}
