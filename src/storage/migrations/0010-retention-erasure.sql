-- Data retention per site (NULL: keep forever; else 1–120 months, enforced by compaction: storage/retention.ts).
-- Idempotent (IF NOT EXISTS): tests that fake an older data directory re-run every migration after theirs.
ALTER TABLE sites ADD COLUMN IF NOT EXISTS retention_months INTEGER;

-- One row per visitor erasure (storage/erase-visitor.ts): who asked, when, which visitor, how many rows went.
-- No personal data: the profile's UUID and its internal 53-bit id, never uid, external_id, email or name.
-- It is also the loader's tombstone: events of an erased visitor still in the ingest log when the erasure
-- ran (ts at or before erased_at) are dropped when they load.
CREATE TABLE IF NOT EXISTS visitor_erasures (
  id UUID PRIMARY KEY,
  site_id VARCHAR NOT NULL,
  visitor UUID NOT NULL,
  visitor_id BIGINT NOT NULL,
  erased_at TIMESTAMP NOT NULL,
  erased_by UUID NOT NULL,
  events_deleted BIGINT NOT NULL,
  visits_deleted BIGINT NOT NULL
);

-- Per site, the instant before which retention has deleted everything (storage/retention.ts). First-occurrence
-- marks of later events may point before it, at rows that are gone: a range starting before the floor is
-- counted the exact way (query/marks.ts), so no file has to be rewritten for its marks.
CREATE TABLE IF NOT EXISTS retention_floors (
  site_id VARCHAR PRIMARY KEY,
  floor TIMESTAMP NOT NULL
);
