// The shared-link credential: a link's own token (shl_…) or an unlocked link's access token (shs_…) → the one site it reaches.
import type { MetaDb } from '../storage/meta-db.ts';
import { randomHex, sha256 } from '../security/tokens.ts';
import { CredentialCache } from '../security/credential-cache.ts';
import { unauthorized } from '../http/errors.ts';

export const LINK_PREFIX = 'shl_';
export const ACCESS_PREFIX = 'shs_';
/** An unlocked link stays open this long in one browser; then its password is asked again. */
const ACCESS_LIFETIME_MS = 24 * 3600 * 1000;

export type LiveLink = { id: string; orgId: string; siteId: string; hasPassword: boolean };
export type ShareGrant = { linkId: string; orgId: string; siteId: string };

export const isShareToken = (token: string) => token.startsWith(LINK_PREFIX) || token.startsWith(ACCESS_PREFIX);

// Tokens are random: one that was not found cannot exist later, so misses are cached too.
const links = new CredentialCache<LiveLink>({ cacheMisses: true, revocable: true });
const accesses = new CredentialCache<{ link: LiveLink; expiresMs: number }>({ cacheMisses: true, revocable: true });

const LINK_COLUMNS = `l.id::VARCHAR AS id, l.org_id::VARCHAR AS org_id, l.site_id::VARCHAR AS site_id, l.password_hash IS NOT NULL AS has_password`;
type LinkRow = { id: string; org_id: string; site_id: string; has_password: boolean };
const live = (r: LinkRow): LiveLink => ({ id: r.id, orgId: r.org_id, siteId: r.site_id, hasPassword: r.has_password });

/** The live (not revoked) link behind a link token, or undefined. */
export async function linkByToken(db: MetaDb, token: string): Promise<LiveLink | undefined> {
  if (!token.startsWith(LINK_PREFIX)) return undefined;
  const hash = sha256(token);
  return links.get(hash, async () => {
    const row = await db.one<LinkRow>(`SELECT ${LINK_COLUMNS} FROM shared_links l WHERE l.token_hash = ? AND l.revoked_at IS NULL`, [hash]);
    return row && live(row);
  });
}

/** What a share token may read (auth layer, contract §4 step 2): 401 for an unknown, revoked or expired one, or a bare token of a password-protected link. */
export async function shareGrant(db: MetaDb, token: string): Promise<ShareGrant> {
  let link: LiveLink | undefined;
  if (token.startsWith(LINK_PREFIX)) {
    link = await linkByToken(db, token);
    if (link?.hasPassword) throw unauthorized('Password required');
  } else {
    const hash = sha256(token);
    const access = await accesses.get(hash, async () => {
      const row = await db.one<LinkRow & { expires_at: string }>(
        `SELECT ${LINK_COLUMNS}, s.expires_at FROM share_sessions s JOIN shared_links l ON l.id = s.link_id
         WHERE s.token_hash = ? AND s.expires_at > now()::TIMESTAMP AND l.revoked_at IS NULL`,
        [hash],
      );
      return row && { link: live(row), expiresMs: Date.parse(row.expires_at) };
    });
    link = access && access.expiresMs > Date.now() ? access.link : undefined;
  }
  if (!link) throw unauthorized('Invalid or expired shared link');
  return { linkId: link.id, orgId: link.orgId, siteId: link.siteId };
}

/** A fresh access token for an unlocked link. */
export async function createAccess(db: MetaDb, linkId: string) {
  const token = `${ACCESS_PREFIX}${randomHex(32)}`;
  const expires = new Date(Date.now() + ACCESS_LIFETIME_MS);
  await db.exec('INSERT INTO share_sessions VALUES (?, ?, now()::TIMESTAMP, ?::TIMESTAMPTZ::TIMESTAMP)', [sha256(token), linkId, expires.toISOString()]);
  await db.exec('DELETE FROM share_sessions WHERE expires_at <= now()::TIMESTAMP');
  return { token, expires_at: expires.toISOString() };
}

/** After a link is revoked (or its site deleted): the next request with its tokens is refused. */
export function forgetLinks(matches: (link: LiveLink) => boolean) {
  links.invalidate(matches);
  accesses.invalidate((a) => matches(a.link));
}
