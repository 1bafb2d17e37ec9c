-- Imports (ingest/import.ts). Per site, the secret that, with the day, salts the fingerprint (IP + user agent)
-- of imported events without a visitor ID on days whose live salt is gone, so every request of one history
-- names a visitor alike. Kept as long as the site.
CREATE TABLE IF NOT EXISTS import_keys (
  site_id VARCHAR PRIMARY KEY,
  secret VARCHAR NOT NULL
);

-- The first answer to an import sent with an Idempotency-Key (or import_id): a retry gets it back instead of
-- importing again. Written in the import's own load transaction, so an answer exists exactly when its events do.
CREATE TABLE IF NOT EXISTS import_requests (
  site_id VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  status INTEGER NOT NULL,
  result VARCHAR NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
  PRIMARY KEY (site_id, key)
);
