-- Per-site report definitions: goals, funnels and chart annotations (plain metadata tables).
-- site_id is VARCHAR like events.site_id so analytics queries join without casts.
CREATE TABLE goals (
  id UUID PRIMARY KEY,
  site_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  type VARCHAR NOT NULL,        -- 'pageview' (matches path) or 'event' (matches event name)
  path VARCHAR,                 -- glob: '*' one path segment, '**' any depth
  event_name VARCHAR,
  value DOUBLE,                 -- added to revenue once per completion
  archived BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMP NOT NULL
);

CREATE TABLE funnels (
  id UUID PRIMARY KEY,
  site_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  steps JSON NOT NULL,          -- [{type, value, label?}], 2–8 entries, in order
  conversion_window VARCHAR NOT NULL, -- 'session', '1h', '1d', '7d' or '30d'
  created_at TIMESTAMP NOT NULL
);

-- date is a calendar date in the site's time zone, as chart points are.
CREATE TABLE annotations (
  id UUID PRIMARY KEY,
  site_id VARCHAR NOT NULL,
  date DATE NOT NULL,
  text VARCHAR NOT NULL,
  created_at TIMESTAMP NOT NULL
);
