// A short, stable hash of a source tree (file names and contents), the key of build caches in DATA_DIR/cache.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Hashes every file under `dirs` (recursively) whose name ends with one of `exts`, plus any `extraFiles`. */
export function sourceHash(dirs: string[], exts: string[], extraFiles: string[] = []): string {
  const h = createHash('sha256');
  const add = (root: string, dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const path = join(dir, f);
      if (statSync(path).isDirectory()) add(root, path);
      else if (exts.some((e) => f.endsWith(e))) h.update(relative(root, path)).update('\0').update(readFileSync(path));
    }
  };
  for (const d of dirs) add(d, d);
  for (const f of extraFiles) {
    try {
      h.update(f).update('\0').update(readFileSync(f));
    } catch {
      // A missing extra file (e.g. no lockfile in a deployment) only weakens the key.
    }
  }
  return h.digest('hex').slice(0, 16);
}
