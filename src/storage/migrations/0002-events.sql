-- Analytics storage. Hot rows live here until compaction moves closed visits to Parquet
-- (DATA_DIR/parquet/<table>/site=<id>/month=<YYYY-MM>/*.parquet); queries read both.
-- ts values are UTC. visitor_id / visit_id are 53-bit integer hashes so grouping stays on integers.
CREATE TABLE events (
  ts TIMESTAMP NOT NULL,
  site_id VARCHAR NOT NULL,
  visitor_id BIGINT NOT NULL,
  visit_id BIGINT NOT NULL,
  event_type VARCHAR NOT NULL,
  event_name VARCHAR,
  url VARCHAR,
  hostname VARCHAR,
  path VARCHAR,
  title VARCHAR,
  referrer VARCHAR,
  source VARCHAR,
  channel VARCHAR,
  utm_source VARCHAR,
  utm_medium VARCHAR,
  utm_campaign VARCHAR,
  utm_term VARCHAR,
  utm_content VARCHAR,
  country VARCHAR,
  region VARCHAR,
  city VARCHAR,
  browser VARCHAR,
  browser_version VARCHAR,
  os VARCHAR,
  os_version VARCHAR,
  device VARCHAR,
  screen VARCHAR,
  session_id VARCHAR,
  time_on_page DOUBLE,
  scroll_depth DOUBLE,
  revenue DECIMAL(18, 4),
  currency VARCHAR,
  order_id VARCHAR,
  props MAP(VARCHAR, VARCHAR)
);

-- One row per visit: visit-level breakdowns read this much smaller table.
-- Attributes are those of the visit's first event; counters cover the whole visit.
CREATE TABLE visits (
  site_id VARCHAR NOT NULL,
  visit_id BIGINT NOT NULL,
  visitor_id BIGINT NOT NULL,
  start_ts TIMESTAMP NOT NULL,
  end_ts TIMESTAMP NOT NULL,
  entry_page VARCHAR,
  exit_page VARCHAR,
  hostname VARCHAR,
  referrer VARCHAR,
  source VARCHAR,
  channel VARCHAR,
  utm_source VARCHAR,
  utm_medium VARCHAR,
  utm_campaign VARCHAR,
  utm_term VARCHAR,
  utm_content VARCHAR,
  country VARCHAR,
  region VARCHAR,
  city VARCHAR,
  browser VARCHAR,
  browser_version VARCHAR,
  os VARCHAR,
  os_version VARCHAR,
  device VARCHAR,
  screen VARCHAR,
  pageviews INTEGER NOT NULL,
  events INTEGER NOT NULL,
  duration INTEGER NOT NULL,
  is_bounce BOOLEAN NOT NULL,
  revenue DECIMAL(18, 4)
);

-- Visitor profiles (spec §2.4), kept current in batches by the loader and by /identify.
CREATE TABLE visitors (
  id UUID NOT NULL,
  site_id VARCHAR NOT NULL,
  visitor_id BIGINT NOT NULL,
  uid VARCHAR,
  external_id VARCHAR,
  name VARCHAR,
  email VARCHAR,
  avatar_url VARCHAR,
  custom JSON,
  first_seen_at TIMESTAMP,
  last_seen_at TIMESTAMP,
  total_sessions BIGINT NOT NULL DEFAULT 0,
  total_pageviews BIGINT NOT NULL DEFAULT 0,
  total_revenue DECIMAL(18, 4) NOT NULL DEFAULT 0,
  last_country VARCHAR,
  last_browser VARCHAR,
  last_os VARCHAR,
  last_device VARCHAR,
  last_referrer_source VARCHAR,
  PRIMARY KEY (site_id, visitor_id)
);

-- Log segments already loaded: replaying the durable log skips these, so nothing counts twice.
CREATE TABLE ingest_segments (
  name VARCHAR PRIMARY KEY,
  rows BIGINT NOT NULL,
  loaded_at TIMESTAMP NOT NULL
);

-- Parquet files that hold compacted rows; a file not listed here is an orphan and is removed at start.
CREATE TABLE parquet_files (
  path VARCHAR PRIMARY KEY,
  tbl VARCHAR NOT NULL,
  site_id VARCHAR NOT NULL,
  month VARCHAR NOT NULL,
  rows BIGINT NOT NULL,
  min_ts TIMESTAMP NOT NULL,
  max_ts TIMESTAMP NOT NULL,
  created_at TIMESTAMP NOT NULL
);

-- Daily salts for visitors without a visitor_uid: today's and yesterday's only, so a restart keeps them
-- and a fingerprint cannot be linked across more than a day boundary.
CREATE TABLE ingest_salts (
  day VARCHAR PRIMARY KEY,
  salt VARCHAR NOT NULL
);
