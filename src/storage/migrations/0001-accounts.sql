-- Metadata schema: people, organizations, sites and the credentials that reach them.
CREATE TABLE users (
  id UUID PRIMARY KEY,
  email VARCHAR NOT NULL UNIQUE,
  name VARCHAR,
  password_hash VARCHAR NOT NULL,
  created_at TIMESTAMP NOT NULL
);

CREATE TABLE organizations (
  id UUID PRIMARY KEY,
  name VARCHAR NOT NULL,
  plan VARCHAR NOT NULL,
  created_at TIMESTAMP NOT NULL
);

CREATE TABLE memberships (
  org_id UUID NOT NULL,
  user_id UUID NOT NULL,
  role VARCHAR NOT NULL,
  created_at TIMESTAMP NOT NULL,
  PRIMARY KEY (org_id, user_id)
);

-- Only the SHA-256 of a session token is kept.
CREATE TABLE sessions (
  token_hash VARCHAR PRIMARY KEY,
  user_id UUID NOT NULL,
  created_at TIMESTAMP NOT NULL,
  expires_at TIMESTAMP NOT NULL
);

CREATE TABLE sites (
  id UUID PRIMARY KEY,
  org_id UUID NOT NULL,
  public_id VARCHAR NOT NULL UNIQUE,
  domain VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  timezone VARCHAR NOT NULL,
  currency VARCHAR NOT NULL,
  created_at TIMESTAMP NOT NULL
);

-- Only the SHA-256 of a key is kept; key_last4 feeds the masked preview.
CREATE TABLE api_keys (
  id UUID PRIMARY KEY,
  org_id UUID NOT NULL,
  name VARCHAR NOT NULL,
  scopes VARCHAR[] NOT NULL,
  key_hash VARCHAR NOT NULL UNIQUE,
  key_last4 VARCHAR NOT NULL,
  created_at TIMESTAMP NOT NULL,
  expires_at TIMESTAMP,
  revoked_at TIMESTAMP,
  last_used_at TIMESTAMP
);
