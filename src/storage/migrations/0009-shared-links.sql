-- Read-only links to one site's dashboard. Only the SHA-256 of a link's token is kept, its password as a scrypt hash.
CREATE TABLE IF NOT EXISTS shared_links (
  id UUID PRIMARY KEY,
  org_id UUID NOT NULL,
  site_id UUID NOT NULL,
  name VARCHAR,
  token_hash VARCHAR NOT NULL UNIQUE,
  token_last4 VARCHAR NOT NULL,
  password_hash VARCHAR,
  created_at TIMESTAMP NOT NULL,
  revoked_at TIMESTAMP
);

-- Access tokens handed out by unlocking a password-protected link (SHA-256 only), ended with the link.
CREATE TABLE IF NOT EXISTS share_sessions (
  token_hash VARCHAR PRIMARY KEY,
  link_id UUID NOT NULL,
  created_at TIMESTAMP NOT NULL,
  expires_at TIMESTAMP NOT NULL
);
