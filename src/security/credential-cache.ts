// In-process cache of auth lookups (API keys, sessions, memberships) so a request need not query DuckDB to authenticate.
import { lru, type LRU } from 'tiny-lru';

/**
 * Entries are keyed by the credential's hash and hold what the lookup found (with its expiry, which
 * callers check on every use). Every write that can end a credential (revoke, logout, plan change)
 * calls `forget`/`invalidate` after its UPDATE; the generation counter keeps a lookup that read the
 * old row while that write ran from putting it back, so the very next request sees the change.
 */
export class CredentialCache<T> {
  private entries: LRU<T>;
  private generation = 0;

  constructor(max = 10_000, ttlMs = 5 * 60_000) {
    this.entries = lru<T>(max, ttlMs);
  }

  async get(hash: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const hit = this.entries.get(hash);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const found = await load();
    if (found !== undefined && generation === this.generation) this.entries.set(hash, found);
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
