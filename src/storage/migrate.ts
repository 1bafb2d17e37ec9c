// Applies the numbered SQL files in storage/migrations once each, in order, at start; a migration whose
// rows also live in Parquet files (which SQL files cannot list) gets a backfill step in the same transaction.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Tx } from './database.ts';
import { sqlPath } from './parquet-layout.ts';

/** Compacted events' order IDs join the registry 0004 creates from the hot events. */
async function backfillOrders(tx: Tx, dataDir: string) {
  const files = await tx.query<{ path: string }>(`SELECT path FROM parquet_files WHERE tbl = 'events'`);
  if (!files.length) return;
  const list = files.map((f) => sqlPath(join(dataDir, f.path))).join(', ');
  await tx.exec(`INSERT INTO orders
    SELECT site_id, order_id, min(ts) FROM read_parquet([${list}]) WHERE order_id IS NOT NULL AND revenue IS NOT NULL GROUP BY ALL
    ON CONFLICT (site_id, order_id) DO UPDATE SET first_ts = least(orders.first_ts, EXCLUDED.first_ts)`);
}

const BACKFILLS: Record<string, (tx: Tx, dataDir: string) => Promise<void>> = { '0004-orders.sql': backfillOrders };

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
      await BACKFILLS[f]?.(tx, db.dataDir);
      await tx.exec('INSERT INTO schema_migrations (name) VALUES (?)', [f]);
    });
    applied.push(f);
  }
  return applied;
}
