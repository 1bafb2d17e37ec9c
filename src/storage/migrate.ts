// Applies the numbered SQL files in storage/migrations once each, in order, at start; a migration that
// needs Parquet files (which SQL cannot list or write) has a step after its SQL in the same transaction.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database.ts';
import type { Tx } from './database.ts';
import { BACKFILLS } from './migrations/registry-backfills.ts';
import { moveHotEvents } from './migrations/retire-hot-events.ts';
import { addEngagedColumns } from './migrations/engaged-columns.ts';
import { markAttributeChanges } from './migrations/mark-attribute-changes.ts';

const STEPS: Record<string, (tx: Tx, dataDir: string) => Promise<void>> = {
  ...BACKFILLS,
  '0006-events-in-parquet.sql': moveHotEvents,
  '0007-engaged-pages.sql': addEngagedColumns,
  '0008-first-occurrence-marks.sql': markAttributeChanges,
  '0013-attribute-change-marks.sql': markAttributeChanges,
};

const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'migrations');

export async function migrate(db: Database): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name VARCHAR PRIMARY KEY, applied_at TIMESTAMP DEFAULT current_timestamp)`);
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  const files = readdirSync(dir).filter((f) => /^\d{4}-.*\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const f of files) {
    if (done.has(f)) continue;
    const sql = readFileSync(join(dir, f), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await STEPS[f]?.(tx, db.dataDir);
      await tx.exec('INSERT INTO schema_migrations (name) VALUES (?)', [f]);
    });
    applied.push(f);
  }
  return applied;
}
