// Session tokens: 256 random bits handed out once, only their SHA-256 kept, valid 30 days.
import type { MetaDb } from '../storage/meta-db.ts';
import { randomHex, sha256 } from '../security/tokens.ts';
import { CredentialCache } from '../security/credential-cache.ts';

export const SESSION_PREFIX = 'ses_';
const LIFETIME_MS = 30 * 24 * 3600 * 1000;

export async function createSession(db: MetaDb, userId: string) {
  const token = `${SESSION_PREFIX}${randomHex(32)}`;
  const expires = new Date(Date.now() + LIFETIME_MS);
  await db.exec('INSERT INTO sessions VALUES (?, ?, now()::TIMESTAMP, ?::TIMESTAMPTZ::TIMESTAMP)', [sha256(token), userId, expires.toISOString()]);
  // Expired rows are dead weight; a login is rare enough to sweep them.
  await db.exec('DELETE FROM sessions WHERE expires_at <= now()::TIMESTAMP');
  return { token, expires_at: expires.toISOString() };
}

const cache = new CredentialCache<{ userId: string; expiresMs: number }>({ cacheMisses: true, revocable: true });

/** The user id behind a live session token, or undefined. */
export async function sessionUser(db: MetaDb, token: string): Promise<string | undefined> {
  // Every session token carries the prefix, so anything else is answered without a lookup.
  if (!token.startsWith(SESSION_PREFIX)) return undefined;
  const hash = sha256(token);
  const session = await cache.get(hash, async () => {
    const row = await db.one<{ user_id: string; expires_at: string }>(
      'SELECT user_id::VARCHAR AS user_id, expires_at FROM sessions WHERE token_hash = ? AND expires_at > now()::TIMESTAMP',
      [hash],
    );
    return row && { userId: row.user_id, expiresMs: Date.parse(row.expires_at) };
  });
  return session && session.expiresMs > Date.now() ? session.userId : undefined;
}

export async function endSession(db: MetaDb, token: string) {
  const hash = sha256(token);
  await db.exec('DELETE FROM sessions WHERE token_hash = ?', [hash]);
  cache.forget(hash);
}
