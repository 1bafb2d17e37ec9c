-- Metadata on PostgreSQL (DATABASE_URL): the tables of DuckDB migrations 0001, 0003, 0009 and 0010's
-- sites.retention_months, with the same columns in the same order (services insert by position).
-- Timestamps are TIMESTAMPTZ read in UTC, so they come back as the same ISO strings DuckDB gives.
CREATE TABLE users (
  id UUID PRIMARY KEY,
  email VARCHAR NOT NULL UNIQUE,
  name VARCHAR,
  password_hash VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE organizations (
  id UUID PRIMARY KEY,
  name VARCHAR NOT NULL,
  plan VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE memberships (
  org_id UUID NOT NULL,
  user_id UUID NOT NULL,
  role VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE sessions (
  token_hash VARCHAR PRIMARY KEY,
  user_id UUID NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE sites (
  id UUID PRIMARY KEY,
  org_id UUID NOT NULL,
  public_id VARCHAR NOT NULL UNIQUE,
  domain VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  timezone VARCHAR NOT NULL,
  currency VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  retention_months INTEGER
);

CREATE TABLE api_keys (
  id UUID PRIMARY KEY,
  org_id UUID NOT NULL,
  name VARCHAR NOT NULL,
  scopes VARCHAR[] NOT NULL,
  key_hash VARCHAR NOT NULL UNIQUE,
  key_last4 VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ,
  last_used_at TIMESTAMPTZ
);
CREATE INDEX api_keys_org ON api_keys (org_id);

CREATE TABLE goals (
  id UUID PRIMARY KEY,
  site_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  type VARCHAR NOT NULL,
  path VARCHAR,
  event_name VARCHAR,
  value DOUBLE PRECISION,
  archived BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX goals_site ON goals (site_id);

CREATE TABLE funnels (
  id UUID PRIMARY KEY,
  site_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  steps JSON NOT NULL,
  conversion_window VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX funnels_site ON funnels (site_id);

CREATE TABLE annotations (
  id UUID PRIMARY KEY,
  site_id VARCHAR NOT NULL,
  date DATE NOT NULL,
  text VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX annotations_site ON annotations (site_id, date);

CREATE TABLE shared_links (
  id UUID PRIMARY KEY,
  org_id UUID NOT NULL,
  site_id UUID NOT NULL,
  name VARCHAR,
  token_hash VARCHAR NOT NULL UNIQUE,
  token_last4 VARCHAR NOT NULL,
  password_hash VARCHAR,
  created_at TIMESTAMPTZ NOT NULL,
  revoked_at TIMESTAMPTZ
);
CREATE INDEX shared_links_site ON shared_links (site_id);

CREATE TABLE share_sessions (
  token_hash VARCHAR PRIMARY KEY,
  link_id UUID NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX share_sessions_link ON share_sessions (link_id);

-- Fixed-window request counters shared by every node (per-key limits, contract §5): one row per caller,
-- its window's start (milliseconds, PostgreSQL's clock) and the requests counted in it.
CREATE TABLE rate_windows (
  who VARCHAR PRIMARY KEY,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL
);
