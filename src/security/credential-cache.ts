// In-process cache of auth lookups (API keys, sessions, memberships) so a request need not query DuckDB to authenticate.
import QuickLRU from 'quick-lru';

/**
 * Entries are keyed by the credential's hash and hold what the lookup found (with its expiry, which
 * callers check on every use). Every write that can end a credential (revoke, logout, plan change)
 * calls `forget`/`invalidate` after its UPDATE; the generation counter keeps a lookup that read the
 * old row while that write ran from putting it back, so the very next request sees the change.
 */
/** quick-lru keeps two generations of maxSize entries each: at most this many in all. */
const MAX_ENTRIES = 10_000;

/**
 * Off when several nodes share the metadata store (DATABASE_URL): a revocation or logout on another node
 * cannot reach this process's entries, so credentials that can end (`revocable`) are looked up on every
 * request — one indexed PostgreSQL read — instead of being remembered.
 */
let processCache = true;
export const cacheCredentialsInProcess = (on: boolean) => {
  processCache = on;
};

export class CredentialCache<T> {
  private entries: QuickLRU<string, T>;
  /**
   * Hashes looked up and not found (opt-in): a stream of made-up tokens then costs no DuckDB query each.
   * Only for random bearer tokens — a token that did not exist cannot start to exist later — never for
   * lookups whose answer can turn from "no" to "yes" (a membership, say).
   */
  private misses: QuickLRU<string, true> | undefined;
  private generation = 0;

  private revocable: boolean;

  /** `revocable`: the credential can be ended by a write (revoke, logout, expiry of an access token). */
  constructor(opts: { cacheMisses?: boolean; revocable?: boolean } = {}) {
    this.revocable = opts.revocable ?? false;
    this.entries = new QuickLRU<string, T>({ maxSize: MAX_ENTRIES / 2, maxAge: 5 * 60_000 });
    if (opts.cacheMisses) this.misses = new QuickLRU<string, true>({ maxSize: MAX_ENTRIES / 2, maxAge: 60_000 });
  }

  async get(hash: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.revocable && !processCache) return load();
    const hit = this.entries.get(hash);
    if (hit !== undefined) return hit;
    if (this.misses?.get(hash)) return undefined;
    const generation = this.generation;
    const found = await load();
    if (generation === this.generation) {
      if (found !== undefined) this.entries.set(hash, found);
      else this.misses?.set(hash, true);
    }
    return found;
  }

  forget(hash: string) {
    this.generation++;
    this.entries.delete(hash);
  }

  /** Drop every entry `matches` accepts (all of them without a predicate). */
  invalidate(matches?: (value: T) => boolean) {
    this.generation++;
    if (!matches) {
      this.entries.clear();
      return;
    }
    for (const k of this.entries.keys()) {
      const v = this.entries.peek(k);
      if (v !== undefined && matches(v)) this.entries.delete(k);
    }
  }
}
