-- Pageviews and events per site and 15-minute UTC slot: every zone's day, week, month and hour
-- boundaries fall on a quarter hour, so unfiltered counts over a period or per chart bucket sum a few
-- thousand slots instead of scanning every event. Kept current by the loader (events are insert-only,
-- so counts only add); existing rows (hot and Parquet) are added by its backfill (registries.ts).
CREATE TABLE event_counts (
  site_id VARCHAR NOT NULL,
  slot TIMESTAMP NOT NULL,
  pageviews BIGINT NOT NULL,
  events BIGINT NOT NULL,
  PRIMARY KEY (site_id, slot)
);
