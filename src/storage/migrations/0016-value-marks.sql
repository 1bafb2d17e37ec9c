-- Previous-visit marks per source and channel (see storage/value-marks.ts): per visit, the start of its visitor's
-- previous visit with the same source (channel), so a range's visitors per source or channel are sums instead of a
-- grouping of every visit by visitor. Only the columns are added here: stored files keep theirs and read the marks
-- as NULL (unknown) until compaction fills every site listed in value_marks_pending (fill-value-marks.ts), rewriting
-- its visit files only; reports count those visitors the exact slow way until then.
ALTER TABLE visits ADD COLUMN IF NOT EXISTS source_prev BIGINT;
ALTER TABLE visits ADD COLUMN IF NOT EXISTS channel_prev BIGINT;
-- Per visitor, each value with the start of its latest visit with it: what the loader marks the next visits against.
ALTER TABLE visitor_history ADD COLUMN IF NOT EXISTS source_starts STRUCT(v VARCHAR, t TIMESTAMP)[];
ALTER TABLE visitor_history ADD COLUMN IF NOT EXISTS channel_starts STRUCT(v VARCHAR, t TIMESTAMP)[];
-- A site whose marks per value are not filled yet: every site with stored visits (the metadata may live elsewhere).
CREATE TABLE IF NOT EXISTS value_marks_pending (site_id VARCHAR PRIMARY KEY);
INSERT INTO value_marks_pending SELECT site_id FROM parquet_files UNION SELECT site_id FROM visits UNION SELECT id::VARCHAR FROM sites
  ON CONFLICT DO NOTHING;
