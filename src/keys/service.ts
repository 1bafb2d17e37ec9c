// API keys: issue (shown once), list masked, revoke, and authenticate a presented key.
import { lockAcrossNodes, uuidOrNull, type MetaDb } from '../storage/meta-db.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { randomHex, sha256 } from '../security/tokens.ts';
import { CredentialCache } from '../security/credential-cache.ts';
import { SerialByKey } from '../storage/serial.ts';
import type { ApiKey, KeyScope } from './model.ts';

export const KEY_PREFIX = 'sk_live_';
const MAX_ACTIVE_KEYS = 10;

const LIST_COLUMNS = `id::VARCHAR AS id, name, scopes, '****' || key_last4 AS key_preview, created_at, expires_at, last_used_at,
  CASE WHEN expires_at IS NOT NULL AND expires_at <= now()::TIMESTAMP THEN 'expired' ELSE 'active' END AS status`;

export type AuthenticatedKey = { id: string; org_id: string; scopes: KeyScope[]; plan: string };

const cache = new CredentialCache<AuthenticatedKey & { expiresMs: number }>({ cacheMisses: true, revocable: true });

/** Call after an organization's plan changed: cached keys carry the plan they were looked up with. */
export const forgetOrganizationKeys = (orgId: string) => cache.invalidate((k) => k.org_id === orgId);

/** Key creations of one organization, one at a time: the 10-key count and the insert must be one step. */
const creations = new SerialByKey();

export const PLAN_REQUIRED = 'API key access requires a Startup plan or higher';

export async function createKey(db: MetaDb, orgId: string, input: { name: string; scopes: KeyScope[]; expires_at?: string | null }) {
  const org = await db.one<{ id: string; plan: string }>('SELECT id::VARCHAR AS id, plan FROM organizations WHERE id = ?::UUID', [orgId]);
  if (!org) throw notFound('Organization not found');
  if (org.plan === 'maker') throw new ApiError(402, PLAN_REQUIRED);
  const expires = input.expires_at ? new Date(input.expires_at) : null;
  if (expires && expires.getTime() <= Date.now()) throw badRequest(`Invalid body field 'expires_at': must be in the future`);
  const key = `${KEY_PREFIX}${randomHex(16)}`;
  const row = await creations.run(org.id, () => db.transaction(async (tx) => {
    await lockAcrossNodes(db, tx, `api-keys:${org.id}`);
    const [{ n }] = await tx.query<{ n: number }>(
      `SELECT count(*) AS n FROM api_keys WHERE org_id = ?::UUID AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()::TIMESTAMP)`,
      [org.id],
    );
    if (n >= MAX_ACTIVE_KEYS) throw badRequest('API key limit reached: at most 10 keys per organization');
    const [inserted] = await tx.query<ApiKey>(
      `INSERT INTO api_keys (id, org_id, name, scopes, key_hash, key_last4, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, now()::TIMESTAMP, ?::TIMESTAMPTZ::TIMESTAMP) RETURNING ${LIST_COLUMNS}`,
      [crypto.randomUUID(), org.id, input.name, [...new Set(input.scopes)], sha256(key), key.slice(-4), expires?.toISOString() ?? null],
    );
    return inserted;
  }));
  return { id: row.id, name: row.name, scopes: row.scopes, key, key_preview: row.key_preview, created_at: row.created_at, expires_at: row.expires_at };
}

/** Pending last-use times are written first, so the list shows a use made a moment ago. */
export async function listKeys(db: MetaDb, orgId: string, usage?: KeyUsage) {
  await usage?.flush();
  return db.query<ApiKey>(`SELECT ${LIST_COLUMNS} FROM api_keys WHERE org_id = ?::UUID AND revoked_at IS NULL ORDER BY created_at`, [orgId]);
}

export async function revokeKey(db: MetaDb, orgId: string, keyId: string) {
  const hit = await db.query(
    `UPDATE api_keys SET revoked_at = now()::TIMESTAMP WHERE id = ?::UUID AND org_id = ?::UUID AND revoked_at IS NULL RETURNING id::VARCHAR AS id`,
    [uuidOrNull(keyId), orgId],
  );
  if (hit.length === 0) throw notFound('API key not found');
  cache.invalidate((k) => k.id === hit[0].id);
  return { id: hit[0].id as string, status: 'revoked' as const };
}

/**
 * The live key behind a presented secret, or a 401. Usage times are batched in memory and
 * written at most every few seconds, so a request never waits on a write.
 */
export async function authenticateKey(db: MetaDb, presented: string, usage: KeyUsage): Promise<AuthenticatedKey> {
  const hash = sha256(presented);
  const found = await cache.get(hash, async () => {
    const row = await db.one<AuthenticatedKey & { expires_at: string | null }>(
      `SELECT k.id::VARCHAR AS id, k.org_id::VARCHAR AS org_id, k.scopes, o.plan, k.expires_at FROM api_keys k JOIN organizations o ON o.id = k.org_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()::TIMESTAMP)`,
      [hash],
    );
    if (!row) return undefined;
    const { expires_at, ...key } = row;
    return { ...key, expiresMs: expires_at ? Date.parse(expires_at) : Infinity };
  });
  if (!found || found.expiresMs <= Date.now()) throw new ApiError(401, 'Invalid or expired API key');
  usage.touch(found.id);
  const { expiresMs: _, ...key } = found;
  return key;
}

/** Collects last-use times and flushes them in one UPDATE per interval. */
export class KeyUsage {
  private pending = new Map<string, string>();
  private timer: ReturnType<typeof setInterval>;
  constructor(private db: MetaDb, intervalMs = 5_000) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    (this.timer as any).unref?.();
  }
  touch(keyId: string) {
    this.pending.set(keyId, new Date().toISOString());
  }
  async flush() {
    if (this.pending.size === 0) return;
    const ids = [...this.pending.keys()];
    const times = [...this.pending.values()];
    this.pending.clear();
    // Last-use times are best-effort: a failed write only leaves them a little stale.
    await this.db
      .exec(
        `UPDATE api_keys SET last_used_at = u.at::TIMESTAMPTZ::TIMESTAMP
         FROM (SELECT unnest(?::VARCHAR[]) AS id, unnest(?::VARCHAR[]) AS at) u WHERE api_keys.id = u.id::UUID`,
        [ids, times],
      )
      .catch(() => {});
  }
  async stop() {
    clearInterval(this.timer);
    await this.flush();
  }
}
