// Registries that summarise the events (paid events, counts per 15-minute slot): the
// loader upserts each batch into them, and the migration that creates one backfills it from what is stored
// (migrations/registry-backfills.ts).

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
