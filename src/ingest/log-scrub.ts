// Erasure's share of the durable log: segments the loader set aside in DATA_DIR/log/failed/ are never loaded,
// so the loader's tombstone does not reach them; their lines of an erased visitor are removed here, each file
// replaced atomically (written beside it, synced, renamed over it). Segments still queued are left to the
// loader, which drops the visitor's rows when it loads them (withoutErased).
import { readdirSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDir, syncFile } from '../storage/durable-file.ts';
import { logKey } from './log-format.ts';

export const failedLogDir = (dataDir: string) => join(dataDir, 'log', 'failed');

const SITE = logKey('site_id');
const VISITOR = logKey('visitor_id');

/**
 * True when the line is the visitor's. A line that does not parse (why a segment fails) is judged by its
 * text: it is dropped when it names both the site and the visitor's key and value.
 */
function isVisitors(line: string, siteId: string, visitorId: number): boolean {
  try {
    const r = JSON.parse(line);
    return r?.[SITE] === siteId && Number(r?.[VISITOR]) === visitorId;
  } catch {
    return line.includes(siteId) && new RegExp(`"${VISITOR}"\\s*:\\s*"?${visitorId}(?![0-9])`).test(line);
  }
}

/** Removes the visitor's lines from every set-aside segment; returns how many lines went. */
export async function scrubFailedSegments(dataDir: string, siteId: string, visitorId: number): Promise<number> {
  const dir = failedLogDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.endsWith('.scrub'));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    // Segments are zero-filled ahead of use: the text ends at the first NUL.
    const text = (await readFile(path, 'utf8')).split('\0', 1)[0]!;
    const lines = text.split('\n');
    const kept = lines.filter((l) => !l.trim() || !isVisitors(l, siteId, visitorId));
    if (kept.length === lines.length) continue;
    removed += lines.length - kept.length;
    const tmp = `${path}.scrub`;
    await writeFile(tmp, kept.join('\n'));
    await syncFile(tmp);
    await rename(tmp, path);
    await syncDir(dir);
  }
  // A crash between write and rename leaves a .scrub copy of a file whose original is still whole.
  for (const n of readdirSync(dir).filter((x) => x.endsWith('.scrub'))) await rm(join(dir, n), { force: true });
  return removed;
}
