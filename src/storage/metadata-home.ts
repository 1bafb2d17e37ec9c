// Which store holds a DATA_DIR's metadata, recorded in its DuckDB file the first time it runs with
// PostgreSQL: a switch either way would hide accounts or, worse, read every local site as deleted.
import type { Database } from './database.ts';

/** Why this DATA_DIR cannot run with (or without) PostgreSQL, or undefined when it can (then it is recorded). */
export async function metadataHomeProblem(db: Database, postgres: boolean): Promise<string | undefined> {
  await db.exec(`CREATE TABLE IF NOT EXISTS metadata_home (store VARCHAR NOT NULL, since TIMESTAMP NOT NULL)`);
  const home = (await db.one<{ store: string }>('SELECT store FROM metadata_home'))?.store;
  if (!postgres) return home === 'postgres' ? 'DATA_DIR keeps its metadata in PostgreSQL: set DATABASE_URL' : undefined;
  if (home === 'postgres') return undefined;
  const [{ n }] = await db.query<{ n: number }>('SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM sites) AS n');
  if (n > 0) return 'DATA_DIR keeps its metadata in DuckDB: moving it to PostgreSQL is not supported; start with an empty DATA_DIR or without DATABASE_URL';
  await db.exec(`INSERT INTO metadata_home VALUES ('postgres', now()::TIMESTAMP)`);
  return undefined;
}
