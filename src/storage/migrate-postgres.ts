// Applies storage/migrations/postgres/*.sql once each, in order, to the PostgreSQL metadata store. Nodes
// starting together take turns: the run holds a transaction-scoped advisory lock.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgresDatabase } from './postgres.ts';

const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'migrations', 'postgres');
/** Any constant of our own: pg_advisory_xact_lock's key for "Tern is migrating". */
const LOCK = 7_365_022;

export async function migratePostgres(db: PostgresDatabase): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(?)', [LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name VARCHAR PRIMARY KEY, applied_at TIMESTAMPTZ DEFAULT now())`);
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const applied: string[] = [];
    for (const f of readdirSync(dir).filter((f) => /^\d{4}-.*\.sql$/.test(f)).sort()) {
      if (done.has(f)) continue;
      await tx.exec(readFileSync(join(dir, f), 'utf8'));
      await tx.exec('INSERT INTO schema_migrations (name) VALUES (?)', [f]);
      applied.push(f);
    }
    return applied;
  });
}
