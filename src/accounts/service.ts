// Register, login and me: the account side of contract §3. Never sees the HTTP request.
import type { MetaDb } from '../storage/meta-db.ts';
import type { Config } from '../config.ts';
import { ApiError, badRequest, forbidden } from '../http/errors.ts';
import { decoyHash, hashPassword, verifyPassword } from '../security/passwords.ts';
import { createSession } from './sessions.ts';
import { createOrganization } from '../organizations/service.ts';
import type { User } from './model.ts';
import type { Organization } from '../organizations/model.ts';

const USER_COLUMNS = `id::VARCHAR AS id, email, name, created_at`;

export async function register(db: MetaDb, config: Config, input: { email: string; password: string; name?: string }) {
  if (!config.allowRegistration) throw forbidden('Registration is closed on this server');
  const email = input.email.trim().toLowerCase();
  if (await db.one('SELECT 1 FROM users WHERE email = ?', [email])) throw badRequest('Email is already registered');
  const passwordHash = await hashPassword(input.password);
  let user: User;
  try {
    [user] = await db.query<User>(`INSERT INTO users VALUES (?, ?, ?, ?, now()::TIMESTAMP) RETURNING ${USER_COLUMNS}`, [
      crypto.randomUUID(),
      email,
      input.name ?? null,
      passwordHash,
    ]);
  } catch (e) {
    if (/constraint/i.test(String(e))) throw badRequest('Email is already registered');
    throw e;
  }
  const organization = await createOrganization(db, user.id, { name: input.name ? `${input.name}'s organization` : `${email}'s organization`, plan: config.defaultPlan });
  return { user, organization, ...(await createSession(db, user.id)) };
}

export async function login(db: MetaDb, input: { email: string; password: string }) {
  const row = await db.one<User & { password_hash: string }>(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = ?`, [
    input.email.trim().toLowerCase(),
  ]);
  // Unknown emails still pay for one scrypt so timing does not reveal who has an account.
  const valid = await verifyPassword(input.password, row?.password_hash ?? (await decoyHash()));
  if (!row || !valid) throw new ApiError(401, 'Invalid email or password');
  const { password_hash: _, ...user } = row;
  return { user, ...(await createSession(db, user.id)) };
}

async function getUser(db: MetaDb, id: string): Promise<User | undefined> {
  return db.one<User>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
}

export async function me(db: MetaDb, userId: string) {
  const user = (await getUser(db, userId))!;
  const organizations = await db.query<Organization & { role: string }>(
    `SELECT o.id::VARCHAR AS id, o.name, o.plan, m.role FROM memberships m JOIN organizations o ON o.id = m.org_id
     WHERE m.user_id = ? ORDER BY o.created_at`,
    [userId],
  );
  return { user, organizations };
}
