-- Where each order_id first appeared, per site: revenue counts an order at its first occurrence only,
-- and this registry answers "was it seen before the range?" without scanning every earlier event.
-- Kept current by the loader; existing rows (hot and Parquet) are added by its backfill (registries.ts).
CREATE TABLE orders (
  site_id VARCHAR NOT NULL,
  order_id VARCHAR NOT NULL,
  first_ts TIMESTAMP NOT NULL,
  PRIMARY KEY (site_id, order_id)
);
