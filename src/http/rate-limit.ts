// Fixed-window request counters (contract §5) and the X-RateLimit-* headers they produce.
import { ApiError } from './errors.ts';

export type Verdict = { limit: number; remaining: number; reset: number; headers: Record<string, string> };

/** What the data endpoints count requests with: in process, or shared by every node (SharedRateLimiter). */
export type Limiter = { readonly limit: number; hit(who: string): Verdict | Promise<Verdict> };

/** The answer for the `count`th request of a window that started at `start`: headers, or a 429 over the limit. */
export function verdict(limit: number, windowMs: number, start: number, count: number, now: number): Verdict {
  const reset = Math.ceil((start + windowMs) / 1000);
  const remaining = Math.max(0, limit - count);
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(reset),
  };
  if (count > limit) {
    // From the exact window end, so it never exceeds the window length; Reset is that end rounded up.
    const retryAfter = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    throw new ApiError(429, `Rate limit exceeded. Retry after ${new Date(reset * 1000).toISOString()}`, {
      ...headers,
      'Retry-After': String(retryAfter),
    });
  }
  return { limit, remaining, reset, headers };
}

/** A window's count after one more request, kept where every node sees it (storage/rate-windows.ts). */
export type SharedCount = (who: string, windowMs: number) => Promise<{ start: number; count: number; now: number }>;

/**
 * The same fixed windows as RateLimiter, counted in the shared store, so a key's limit holds however
 * requests spread over the nodes. Times are the store's clock, so the nodes' clocks need not agree.
 */
export class SharedRateLimiter implements Limiter {
  constructor(private count: SharedCount, readonly limit: number, readonly windowMs = 60_000) {}
  async hit(who: string): Promise<Verdict> {
    const w = await this.count(who, this.windowMs);
    return verdict(this.limit, this.windowMs, w.start, w.count, w.now);
  }
}

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(readonly limit: number, readonly windowMs = 60_000) {}

  /** Count one request for `who`; throws a 429 ApiError (headers included) once over the limit. */
  hit(who: string, now = Date.now()): Verdict {
    let w = this.windows.get(who);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(who, w);
    }
    w.count++;
    return verdict(this.limit, this.windowMs, w.start, w.count, now);
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
