// Registries that summarise the events (paid events, counts per 15-minute slot, events per property key and
// slot, the property index of (event, key) rows): the loader upserts each batch into them, the migration that
// creates one backfills it from what is stored (migrations/registry-backfills.ts), and erasure and retention
// take the events they delete out of them.
import type { Tx } from './database.ts';
import type { Fragment } from './sql.ts';

const SLOT = 'time_bucket(INTERVAL 15 MINUTE, ts)';
/** (site_id, ts, k) for each property key of each event of `from` that carries properties. */
const keysOf = (from: string) => `(SELECT site_id, ts, unnest(map_keys(props)) AS k FROM ${from} WHERE props IS NOT NULL)`;
/** One row per property of each event of `from` that carries properties, as prop_values holds it. */
const propRowsOf = (from: string) =>
  `(SELECT site_id, unnest(map_keys(props)) AS key, ts, visitor_id, unnest(map_values(props)) AS value FROM ${from} WHERE props IS NOT NULL)`;

/** The registries that summarise events: each an upsert from a relation of event rows (see load-sql.ts). */
export const EVENT_REGISTRIES = {
  /** Events that carried revenue (0004). */
  purchases: (from: string) => `INSERT INTO purchases
    SELECT site_id, ts, visitor_id, visit_id, order_id, revenue, currency FROM ${from} WHERE revenue IS NOT NULL`,
  /** Pageviews and events per 15-minute slot (0005). */
  eventCounts: (from: string) => `INSERT INTO event_counts
    SELECT site_id, time_bucket(INTERVAL 15 MINUTE, ts), count(*) FILTER (WHERE event_type = 'pageview'), count(*) FROM ${from} GROUP BY ALL
    ON CONFLICT (site_id, slot) DO UPDATE SET pageviews = event_counts.pageviews + EXCLUDED.pageviews, events = event_counts.events + EXCLUDED.events`,
  /** Events per property key and 15-minute slot (0014): the key list without reading every event's properties. */
  propKeyCounts: (from: string) => `INSERT INTO prop_key_counts
    SELECT site_id, ${SLOT}, k, count(*) FROM ${keysOf(from)} GROUP BY ALL
    ON CONFLICT (site_id, slot, key) DO UPDATE SET events = prop_key_counts.events + EXCLUDED.events`,
  /**
   * One row per event and property key (0015): a key's values, visitors and events without reading every event's
   * map. Sorted so that a key's rows share row groups (their zone maps skip the other keys').
   */
  propValues: (from: string) => `INSERT INTO prop_values SELECT * FROM ${propRowsOf(from)} ORDER BY site_id, key, ts`,
};

/**
 * Takes the events of `from` (a relation of stored event rows, its parameters bound) out of the per-slot
 * registries, in the caller's transaction. The purchases registry is keyed by visitor and cut by the caller.
 */
export async function subtractEvents(tx: Tx, from: Fragment) {
  await tx.exec(`UPDATE event_counts c SET pageviews = c.pageviews - d.pv, events = c.events - d.ev
    FROM (SELECT site_id, ${SLOT} AS slot, count(*) FILTER (WHERE event_type = 'pageview') AS pv, count(*) AS ev FROM ${from.sql} GROUP BY ALL) d
    WHERE c.site_id = d.site_id AND c.slot = d.slot`, from.params);
  await tx.exec(`UPDATE prop_key_counts c SET events = c.events - d.ev
    FROM (SELECT site_id, ${SLOT} AS slot, k, count(*) AS ev FROM ${keysOf(from.sql)} GROUP BY ALL) d
    WHERE c.site_id = d.site_id AND c.slot = d.slot AND c.key = d.k`, from.params);
  // The index has no event identity: an event is its visitor at its instant (two events of a visitor at the same
  // instant belong to the same visit, and erasure and retention delete whole visitors or visits).
  await tx.exec(`DELETE FROM prop_values p USING (SELECT DISTINCT site_id, visitor_id, ts FROM ${from.sql} WHERE props IS NOT NULL) d
    WHERE p.site_id = d.site_id AND p.visitor_id = d.visitor_id AND p.ts = d.ts`, from.params);
}

/** Drops a site's per-slot registry rows and property index rows before `cutoff` (retention), in the caller's transaction. */
export async function dropSlotsBefore(tx: Tx, siteId: string, cutoff: string) {
  for (const t of ['event_counts', 'prop_key_counts']) await tx.exec(`DELETE FROM ${t} WHERE site_id = ? AND slot < ?::TIMESTAMP`, [siteId, cutoff]);
  await tx.exec('DELETE FROM prop_values WHERE site_id = ? AND ts < ?::TIMESTAMP', [siteId, cutoff]);
}
