// Shared links of a site: create (token shown once), list masked, revoke, and the public side (describe, unlock).
import { uuidOrNull, type MetaDb, type MetaTx } from '../storage/meta-db.ts';
import type { Site } from '../sites/model.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { randomHex, sha256 } from '../security/tokens.ts';
import { hashPassword, verifyPassword } from '../security/passwords.ts';
import { createAccess, forgetLinks, LINK_PREFIX, type LiveLink } from './credentials.ts';
import type { SharedLink } from './model.ts';

const LIST_COLUMNS = `id::VARCHAR AS id, name, password_hash IS NOT NULL AS has_password, created_at, '****' || token_last4 AS token_preview`;

export async function createLink(db: MetaDb, site: Site, input: { name?: string; password?: string }) {
  const token = `${LINK_PREFIX}${randomHex(16)}`;
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const [row] = await db.query<SharedLink>(
    `INSERT INTO shared_links (id, org_id, site_id, name, token_hash, token_last4, password_hash, created_at)
     VALUES (?, ?::UUID, ?::UUID, ?, ?, ?, ?, now()::TIMESTAMP) RETURNING ${LIST_COLUMNS}`,
    [crypto.randomUUID(), site.org_id, site.id, input.name ?? null, sha256(token), token.slice(-4), passwordHash],
  );
  return { id: row.id, name: row.name, token, url: `/share/${token}`, has_password: row.has_password, created_at: row.created_at };
}

export async function listLinks(db: MetaDb, siteId: string): Promise<SharedLink[]> {
  return db.query<SharedLink>(`SELECT ${LIST_COLUMNS} FROM shared_links WHERE site_id = ?::UUID AND revoked_at IS NULL ORDER BY created_at`, [siteId]);
}

/** Ends the link and every access token unlocked from it, from the very next request. */
export async function revokeLink(db: MetaDb, siteId: string, linkId: string) {
  const hit = await db.query<{ id: string }>(
    `UPDATE shared_links SET revoked_at = now()::TIMESTAMP WHERE id = ?::UUID AND site_id = ?::UUID AND revoked_at IS NULL RETURNING id::VARCHAR AS id`,
    [uuidOrNull(linkId), siteId],
  );
  if (hit.length === 0) throw notFound('Shared link not found');
  const id = hit[0].id;
  await db.exec('DELETE FROM share_sessions WHERE link_id = ?::UUID', [id]);
  forgetLinks((l) => l.id === id);
  return { id, status: 'revoked' as const };
}

/** A deleted site takes its links along. */
/** The links' share of a site's deletion, inside its transaction; cached links are forgotten once it committed. */
export async function deleteSiteLinks(tx: MetaTx, siteId: string) {
  await tx.exec('DELETE FROM share_sessions WHERE link_id IN (SELECT id FROM shared_links WHERE site_id = ?::UUID)', [siteId]);
  await tx.exec('DELETE FROM shared_links WHERE site_id = ?::UUID', [siteId]);
  return () => forgetLinks((l) => l.siteId === siteId);
}

/** What the share page needs before it asks for data (or for the password). */
export function describeLink(link: LiveLink, site: Site) {
  return {
    site: { id: site.id, name: site.name, domain: site.domain, timezone: site.timezone, currency: site.currency },
    organization_id: site.org_id,
    password_required: link.hasPassword,
  };
}

/** The password → a short-lived access token (shs_…) for this link. */
export async function unlockLink(db: MetaDb, link: LiveLink, password: string) {
  if (!link.hasPassword) throw badRequest('This shared link has no password: use its token directly');
  const row = await db.one<{ password_hash: string }>('SELECT password_hash FROM shared_links WHERE id = ?::UUID AND revoked_at IS NULL', [link.id]);
  if (!row) throw notFound('Shared link not found');
  if (!(await verifyPassword(password, row.password_hash))) throw new ApiError(401, 'Invalid password');
  return createAccess(db, link.id);
}
