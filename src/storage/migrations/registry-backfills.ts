// Migrations 0004, 0005, 0014 and 0015's steps: a new registry takes in the events already stored, the hot table
// and the Parquet files in parquet_files, with the same upsert the loader runs per batch.
import { join } from 'node:path';
import type { Tx } from '../database.ts';
import { sqlPath } from '../parquet-layout.ts';
import { EVENT_REGISTRIES } from '../registries.ts';

/** The stored events' Parquet files as one `read_parquet(...)` relation, or null when there are none. */
async function storedFiles(tx: Tx, dataDir: string): Promise<string | null> {
  const files = await tx.query<{ path: string }>(`SELECT path FROM parquet_files WHERE tbl = 'events'`);
  return files.length ? `read_parquet([${files.map((f) => sqlPath(join(dataDir, f.path))).join(', ')}])` : null;
}

const backfill = (upsert: (from: string) => string) => async (tx: Tx, dataDir: string) => {
  const stored = await storedFiles(tx, dataDir);
  await tx.exec(upsert('events'));
  if (stored) await tx.exec(upsert(stored));
};

/** The hot table and the files in one insert: the property index is stored sorted as one whole. */
const backfillAtOnce = (insert: (from: string) => string) => async (tx: Tx, dataDir: string) => {
  const stored = await storedFiles(tx, dataDir);
  const cols = 'site_id, ts, visitor_id, props';
  await tx.exec(insert(`(SELECT ${cols} FROM events${stored ? ` UNION ALL SELECT ${cols} FROM ${stored}` : ''})`));
};

export const BACKFILLS: Record<string, (tx: Tx, dataDir: string) => Promise<void>> = {
  '0004-purchases.sql': backfill(EVENT_REGISTRIES.purchases),
  '0005-event-counts.sql': backfill(EVENT_REGISTRIES.eventCounts),
  '0014-prop-key-counts.sql': backfill(EVENT_REGISTRIES.propKeyCounts),
  '0015-prop-values.sql': backfillAtOnce(EVENT_REGISTRIES.propValues),
};
