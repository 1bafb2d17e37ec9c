// Password hashing with scrypt (memory-hard, in node:crypto on both Bun and Deno).
import { randomBytes, scrypt as scryptCb } from 'node:crypto';
import { safeEqual } from './tokens.ts';

// N=2^14, r=8: 16 MiB per hash, ~50 ms here: slow for guessing, fine for a login.
const N = 16384, R = 8, P = 1, LEN = 32;

function scrypt(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, LEN, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt);
  return `scrypt$${N}$${R}$${P}$${salt.toString('hex')}$${key.toString('hex')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [, , , , saltHex, keyHex] = stored.split('$');
  if (!saltHex || !keyHex) return false;
  const key = await scrypt(password, Buffer.from(saltHex, 'hex'));
  return safeEqual(key.toString('hex'), keyHex);
}

// A fixed hash to verify against when the email is unknown, so both paths cost one scrypt.
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword('decoy-password-for-unknown-users'));
