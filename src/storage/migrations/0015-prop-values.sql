-- The property index: one row per event and property key it carries, with the value, time and visitor. The
-- Properties panel's values of one key (distinct visitors and events per value) read a key's rows here instead
-- of the property map of every event in the period (12 months of 10M events: the map alone costs ~300 ms to
-- read). Registry-like: the events stay the source of truth; the loader inserts each batch's rows in its
-- transaction, erasure, retention and site deletion take theirs out (registries.ts), and existing events are
-- added by its backfill, sorted by site, key and time so that a key's rows share row groups (the table is
-- replaced, so running it again adds nothing twice). No primary key: an index would cost more bytes than the rows.
CREATE OR REPLACE TABLE prop_values (
  site_id VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  ts TIMESTAMP NOT NULL,
  visitor_id BIGINT NOT NULL,
  value VARCHAR
);
