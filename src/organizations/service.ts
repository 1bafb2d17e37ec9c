// Organizations and memberships: create, list, rename or change plan (owner only).
import { uuidOrNull, type MetaDb } from '../storage/meta-db.ts';
import { forbidden, notFound } from '../http/errors.ts';
import type { Organization, Plan } from './model.ts';
import { forgetOrganizationKeys } from '../keys/service.ts';
import { CredentialCache } from '../security/credential-cache.ts';

const COLUMNS = `o.id::VARCHAR AS id, o.name, o.plan, o.created_at`;

export async function createOrganization(db: MetaDb, ownerId: string, input: { name: string; plan: Plan }): Promise<Organization> {
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx.exec('INSERT INTO organizations VALUES (?, ?, ?, now()::TIMESTAMP)', [id, input.name, input.plan]);
    await tx.exec(`INSERT INTO memberships VALUES (?, ?, 'owner', now()::TIMESTAMP)`, [id, ownerId]);
  });
  return (await getOrganization(db, id))!;
}

export async function getOrganization(db: MetaDb, id: string): Promise<Organization | undefined> {
  return db.one<Organization>(`SELECT ${COLUMNS} FROM organizations o WHERE o.id = ?::UUID`, [uuidOrNull(id)]);
}

export async function listOrganizations(db: MetaDb, userId: string): Promise<Organization[]> {
  return db.query<Organization>(
    `SELECT ${COLUMNS} FROM organizations o JOIN memberships m ON m.org_id = o.id WHERE m.user_id = ? ORDER BY o.created_at`,
    [userId],
  );
}

// Memberships are only ever added (no endpoint removes one or changes a role), so a found role stays
// true; misses are not cached. Whatever removes or changes memberships must call roles.invalidate().
const roles = new CredentialCache<string>();

/** The caller's role in the organization; 404 when they are not a member, so foreign IDs leak nothing. */
export async function membershipRole(db: MetaDb, userId: string, orgId: string): Promise<string> {
  const role = await roles.get(`${userId}:${orgId}`, async () => {
    const row = await db.one<{ role: string }>('SELECT role FROM memberships WHERE user_id = ? AND org_id = ?::UUID', [userId, uuidOrNull(orgId)]);
    return row?.role;
  });
  if (!role) throw notFound('Organization not found');
  return role;
}

export async function patchOrganization(db: MetaDb, orgId: string, role: string, input: { name?: string; plan?: Plan }) {
  if (role !== 'owner') throw forbidden('Only the organization owner can change it');
  // One statement for either or both fields: an absent one keeps its value.
  const [org] = await db.query<Organization>(
    `UPDATE organizations AS o SET name = COALESCE(?, name), plan = COALESCE(?, plan) WHERE o.id = ?::UUID RETURNING ${COLUMNS}`,
    [input.name ?? null, input.plan ?? null, orgId],
  );
  if (input.plan !== undefined) forgetOrganizationKeys(orgId);
  return org!;
}
