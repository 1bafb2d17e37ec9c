-- First-occurrence marks (see storage/marks.ts): per event, when its visitor was last seen, and when on the
-- same page, signed by whether that was in the same visit, so a range's distinct visitors and visits per
-- page are sums instead of a hash of every (page, visitor) pair. Event files are rewritten with them.
ALTER TABLE events ADD COLUMN IF NOT EXISTS seen_prev BIGINT;
ALTER TABLE events ADD COLUMN IF NOT EXISTS page_prev BIGINT;
-- Per visit, the start of its visitor's previous visit: a range's visitors counted from the visits table.
ALTER TABLE visits ADD COLUMN IF NOT EXISTS visit_prev BIGINT;

-- What the loader needs of each visitor's past to mark its next events: the latest event, the visit it
-- belongs to and that visit's start, and the latest time on every page (key '' for events without a path).
CREATE TABLE visitor_history (
  site_id VARCHAR NOT NULL,
  visitor_id BIGINT NOT NULL,
  last_seen TIMESTAMP NOT NULL,
  visit_id BIGINT NOT NULL,
  visit_start TIMESTAMP NOT NULL,
  pages MAP(VARCHAR, TIMESTAMP) NOT NULL
);

-- A site whose marks may be wrong for ranges starting at or before `until`: events arrived older than their
-- visitor's latest stored one (an import of past data). Queries count those ranges the slow exact way until
-- compaction recomputes the site's marks and deletes the row.
CREATE TABLE marks_stale (
  site_id VARCHAR PRIMARY KEY,
  until TIMESTAMP NOT NULL
);

-- Per events file and UTC day, the time-on-page and scroll-depth reports it holds, summed per engaged page:
-- the pages breakdown adds these up for the whole days of its range instead of reading every report
-- (query/engagement.ts). Written with each file (parquet-writer.ts); the step below rewrites every events
-- file, filling it.
CREATE TABLE file_engagement (
  file VARCHAR NOT NULL,
  site_id VARCHAR NOT NULL,
  day DATE NOT NULL,
  engaged_path VARCHAR,
  engaged_hostname VARCHAR,
  top_sum DOUBLE NOT NULL,
  top_n BIGINT NOT NULL,
  sd_sum DOUBLE NOT NULL,
  sd_n BIGINT NOT NULL
);
