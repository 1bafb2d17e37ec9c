-- Object storage (STORAGE_URL, storage/object-mirror.ts): which registered Parquet files are in which store.
-- A file counts in the bucket once it is both here and in parquet_files; a row here whose file left
-- parquet_files is an object still to delete. Only the mirror writes this table; it stays empty without STORAGE_URL.
CREATE TABLE IF NOT EXISTS object_uploads (
  store VARCHAR NOT NULL,
  path VARCHAR NOT NULL,
  uploaded_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
  PRIMARY KEY (store, path)
);
