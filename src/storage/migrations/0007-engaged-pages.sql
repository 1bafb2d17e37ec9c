-- On a pageview: the visit's previous pageview, the page its time_on_page / scroll_depth report is about
-- (spec §2.2). Stored at ingestion so the pages breakdown groups on it instead of windowing every visit.
-- Event files written before these columns existed are rewritten with them (the step in engaged-columns.ts).
ALTER TABLE events ADD COLUMN IF NOT EXISTS engaged_path VARCHAR;
ALTER TABLE events ADD COLUMN IF NOT EXISTS engaged_hostname VARCHAR;
