// Route hooks that count a request against a per-client-IP rate limiter (the auth endpoints, contract §5).
import { checkBeforeBody } from './before-body.ts';
import { clientIp } from './client-ip.ts';
import type { RateLimiter } from './rate-limit.ts';

/** Counted before the body is read, so a flood of junk bodies still meets its 429 and a 400 carries the X-RateLimit-* headers. */
export const ipLimitHooks = (limiter: RateLimiter, trustProxy: boolean) =>
  checkBeforeBody((request) => limiter.hit(`ip:${clientIp(request, trustProxy)}`), (v) => v.headers).hooks;
