// Idempotent imports: a request sent with an Idempotency-Key header (or ?import_id=) answers, when retried,
// its first request's result instead of importing again. The answer is stored in the import's own load
// transaction, so it exists exactly when the events do; one server owns DATA_DIR, so a set of keys in
// flight makes a concurrent duplicate wait its turn as a 409 rather than import twice.
import type { Database, Tx } from '../storage/database.ts';
import type { Serial } from '../storage/serial.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import type { ImportResult } from './import.ts';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The key of a request: the header or the query parameter (the same if both), validated; null without one. */
export function idempotencyKey(header: string | null, param: string | undefined): string | null {
  const h = header?.trim() || null;
  const p = param?.trim() || null;
  if (h && p && h !== p) throw badRequest('Idempotency-Key and import_id differ: send one of them');
  const key = h ?? p;
  if (key !== null && !KEY.test(key)) throw badRequest('Invalid idempotency key: 1 to 255 printable ASCII characters without spaces');
  return key;
}

export class ImportRequests {
  private inFlight = new Set<string>();

  constructor(private db: Database, private serial: Serial) {}

  /**
   * `run` with the key claimed: its result (`replayed` false), or the stored result of the key's first
   * import (`replayed` true). A failed import (4xx, 5xx) imported nothing and stores nothing: retrying it runs it.
   */
  async once(siteId: string, key: string, run: (record: (r: ImportResult, tx?: Tx) => Promise<void>) => Promise<ImportResult>): Promise<{ result: ImportResult; replayed: boolean }> {
    const id = `${siteId}\n${key}`;
    // Claimed before the first await: two requests cannot both pass this line.
    if (this.inFlight.has(id)) throw new ApiError(409, 'An import with this idempotency key is still running: retry once it has answered');
    this.inFlight.add(id);
    try {
      const [stored] = await this.db.query<{ result: string }>('SELECT result FROM import_requests WHERE site_id = ? AND key = ?', [siteId, key]);
      if (stored) return { result: JSON.parse(stored.result), replayed: true };
      const sql = 'INSERT INTO import_requests (site_id, key, status, result) VALUES (?, ?, 200, ?)';
      const result = await run(async (r, tx) => {
        const params = [siteId, key, JSON.stringify(r)];
        if (tx) await tx.exec(sql, params);
        else await this.serial.run(() => this.db.exec(sql, params));
      });
      return { result, replayed: false };
    } finally {
      this.inFlight.delete(id);
    }
  }
}

/** Site-delete hook: the site's import answers and import secret go with it. */
/** Imports' share of a site's deletion, in its transaction: the import secret and the remembered answers. */
export async function deleteSiteImports(tx: Tx, siteId: string) {
  await tx.exec('DELETE FROM import_requests WHERE site_id = ?', [siteId]);
  await tx.exec('DELETE FROM import_keys WHERE site_id = ?', [siteId]);
}
