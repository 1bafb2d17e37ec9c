// Registries that summarise the events (paid events, counts per 15-minute slot): the
// loader upserts each batch into them, and the migration that creates one backfills it from what is stored.
import { join } from 'node:path';
import type { Tx } from './database.ts';
import { sqlPath } from './parquet-layout.ts';

/** The registries that summarise events: each an upsert from a relation of event rows (see load-sql.ts). */
export const EVENT_REGISTRIES = {
  /** Events that carried revenue (0004). */
  purchases: (from: string) => `INSERT INTO purchases
    SELECT site_id, ts, visitor_id, visit_id, order_id, revenue, currency FROM ${from} WHERE revenue IS NOT NULL`,
  /** Pageviews and events per 15-minute slot (0005). */
  eventCounts: (from: string) => `INSERT INTO event_counts
    SELECT site_id, time_bucket(INTERVAL 15 MINUTE, ts), count(*) FILTER (WHERE event_type = 'pageview'), count(*) FROM ${from} GROUP BY ALL
    ON CONFLICT (site_id, slot) DO UPDATE SET pageviews = event_counts.pageviews + EXCLUDED.pageviews, events = event_counts.events + EXCLUDED.events`,
};

/** A new registry takes in the events already stored: the hot table and the Parquet files in parquet_files. */
const backfill = (upsert: (from: string) => string) => async (tx: Tx, dataDir: string) => {
  const files = await tx.query<{ path: string }>(`SELECT path FROM parquet_files WHERE tbl = 'events'`);
  await tx.exec(upsert('events'));
  if (files.length) await tx.exec(upsert(`read_parquet([${files.map((f) => sqlPath(join(dataDir, f.path))).join(', ')}])`));
};

export const BACKFILLS: Record<string, (tx: Tx, dataDir: string) => Promise<void>> = {
  '0004-purchases.sql': backfill(EVENT_REGISTRIES.purchases),
  '0005-event-counts.sql': backfill(EVENT_REGISTRIES.eventCounts),
};
