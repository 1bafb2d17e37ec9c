-- Events live only in Parquet files from now on: the loader writes them there directly. The rows a data
-- directory still holds in this table move to Parquet in this migration (its step in retire-hot-events.ts),
-- and the table stays as the empty schema every events file follows (tableSource() reads it beside them).
COMMENT ON TABLE events IS 'Always empty: events are in the Parquet files listed in parquet_files';
