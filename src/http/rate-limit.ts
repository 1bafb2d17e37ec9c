// Fixed-window request counters (contract §5) and the X-RateLimit-* headers they produce.
import { ApiError } from './errors.ts';

export type Verdict = { limit: number; remaining: number; reset: number; headers: Record<string, string> };

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
    const reset = Math.ceil((w.start + this.windowMs) / 1000);
    const remaining = Math.max(0, this.limit - w.count);
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(this.limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    };
    if (w.count > this.limit) {
      // From the exact window end, so it never exceeds the window length; Reset is that end rounded up.
      const retryAfter = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
      throw new ApiError(429, `Rate limit exceeded. Retry after ${new Date(reset * 1000).toISOString()}`, {
        ...headers,
        'Retry-After': String(retryAfter),
      });
    }
    return { limit: this.limit, remaining, reset, headers };
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
