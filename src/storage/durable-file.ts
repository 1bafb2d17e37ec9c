// fsync for files written outside DuckDB (log segments, Parquet files): their rows must survive a power
// loss before the transaction that points at them commits or the data they replace is deleted.
import { open } from 'node:fs/promises';

/** Flushes a file's data and size to disk. */
export async function syncFile(path: string) {
  const f = await open(path, 'r+');
  try { await f.datasync(); } finally { await f.close(); }
}

/** Makes a new directory entry (a file just created in `dir`) survive a crash. */
export async function syncDir(dir: string) {
  try {
    const d = await open(dir, 'r');
    try { await d.sync(); } finally { await d.close(); }
  } catch {
    // Some platforms cannot fsync a directory; the file's own sync still holds its data.
  }
}
