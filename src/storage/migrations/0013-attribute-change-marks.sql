-- Attribute-change marks (see storage/attr-marks.ts): per event and visit, a bitmask of the visit attributes
-- whose value differs from the visitor's previous row, so a range's visitors per device, country, source…
-- are sums of first-occurrence marks instead of a hash of every (value, visitor) pair. The step after this SQL
-- adds the visitor's last values to visitor_history and rewrites every site's files with the new column
-- (read_parquet cannot read files with and without it together).
ALTER TABLE events ADD COLUMN IF NOT EXISTS attrs_changed INTEGER;
ALTER TABLE visits ADD COLUMN IF NOT EXISTS attrs_changed INTEGER;
