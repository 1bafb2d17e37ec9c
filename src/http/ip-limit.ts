// Route hooks that count a request against a per-client-IP rate limiter (the auth endpoints, contract §5).
import { ApiError } from './errors.ts';
import { clientIp } from './client-ip.ts';
import type { RateLimiter, Verdict } from './rate-limit.ts';

/**
 * Counting happens in `parse`, before the body is read, so that a 400 for a malformed body still
 * carries the X-RateLimit-* headers and a flood of junk bodies still meets its 429. An error thrown
 * in parse would turn into a PARSE 400, so a 429 is parked there and thrown by `transform`.
 */
export function ipLimitHooks(limiter: RateLimiter, trustProxy: boolean) {
  const counted = new WeakMap<Request, Verdict | ApiError>();
  const count = (request: Request, set: { headers: Record<string, unknown> }) => {
    let v = counted.get(request);
    if (!v) {
      try {
        v = limiter.hit(`ip:${clientIp(request, trustProxy)}`);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        v = e;
      }
      counted.set(request, v);
    }
    if (!(v instanceof ApiError)) Object.assign(set.headers, v.headers);
    return v;
  };
  return {
    parse: [({ request, set }: any) => (count(request, set) instanceof ApiError ? {} : undefined)],
    transform({ request, set }: any) {
      const v = count(request, set);
      if (v instanceof ApiError) throw v;
    },
  };
}
