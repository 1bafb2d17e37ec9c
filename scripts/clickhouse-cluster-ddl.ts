// Prints the ClickHouse cluster DDL (docs/scaling.md): ReplicatedMergeTree tables on every shard behind
// Distributed tables, with the columns of this version's stored events and visits. Run by an operator:
// `npx bun scripts/clickhouse-cluster-ddl.ts <cluster> [database]`, then point CLICKHOUSE_URL at the cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { Database } from '../src/storage/database.ts';
import { migrate } from '../src/storage/migrate.ts';
import { clusterDdl } from '../src/storage/clickhouse/schema.ts';

const [cluster, database = 'tern'] = process.argv.slice(2);
if (!cluster) {
  process.stderr.write('usage: scripts/clickhouse-cluster-ddl.ts <cluster> [database]\n');
  process.exit(2);
}
// The columns come from DuckDB's own tables: a throwaway migrated store has them.
const dir = mkdtempSync(join(tmpdir(), 'tern-ddl-'));
const db = await Database.open(dir, 1, '256MB');
try {
  await migrate(db);
  for (const statement of await clusterDdl(db, database, cluster)) process.stdout.write(`${statement};\n\n`);
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
