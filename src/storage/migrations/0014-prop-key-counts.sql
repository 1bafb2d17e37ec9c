-- Events per property key, site and 15-minute UTC slot: the Properties panel's key list over a period sums a
-- few thousand rows instead of reading the property map of every event in it. Kept current by the loader,
-- taken down by erasure and retention (registries.ts); existing events are added by its backfill (the table
-- is replaced, so running it again counts nothing twice).
CREATE OR REPLACE TABLE prop_key_counts (
  site_id VARCHAR NOT NULL,
  slot TIMESTAMP NOT NULL,
  key VARCHAR NOT NULL,
  events BIGINT NOT NULL,
  PRIMARY KEY (site_id, slot, key)
);
