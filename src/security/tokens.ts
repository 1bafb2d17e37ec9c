// Random secrets and their one-way fingerprints: what is stored is never what is handed out.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
