-- Every event that carried revenue, in a small table of its own: revenue reads this instead of scanning
-- all events for the few that paid, and an order_id's first occurrence (it counts once, also when resent
-- in a later range) is looked up here. Kept current by the loader (insert-only); existing rows (hot and
-- Parquet) are added by its backfill (registries.ts).
CREATE TABLE purchases (
  site_id VARCHAR NOT NULL,
  ts TIMESTAMP NOT NULL,
  visitor_id BIGINT NOT NULL,
  visit_id BIGINT NOT NULL,
  order_id VARCHAR,
  revenue DECIMAL(18, 4) NOT NULL,
  currency VARCHAR
);
