// Runs composed fragments against the database; a query that outgrows DuckDB's memory budget is a clear QueryError.
import { isOutOfMemory, type Row } from '../storage/database.ts';
import type { Runner } from './sql/dialect.ts';
import { QueryError } from './errors.ts';
import type { Fragment } from '../storage/sql.ts';

/** DuckDB's buffer pool is capped (DUCKDB_MEMORY_LIMIT); a long period over a big site can exceed it. */
async function guarded<T>(q: Promise<T>): Promise<T> {
  try {
    return await q;
  } catch (e) {
    if (isOutOfMemory(e)) {
      throw new QueryError('too-large', 'This query needs more memory than the server allows (DUCKDB_MEMORY_LIMIT); choose a shorter period or raise the limit');
    }
    throw e;
  }
}

/**
 * Test hook (TERN_TEST_STATEMENT_DELAY_MS): each statement waits this long after it was planned, so a test can
 * make a publication fall between planning and running. Unset, it costs a compare.
 */
let statementDelayMs = 0;
export const setStatementDelay = (ms: number) => { statementDelayMs = ms; };

export const rows = <T extends Row = Row>(db: Runner, f: Fragment) => statementDelayMs
  ? new Promise((r) => setTimeout(r, statementDelayMs)).then(() => guarded(db.query<T>(f.sql, f.params)))
  : guarded(db.query<T>(f.sql, f.params));
export const one = async <T extends Row = Row>(db: Runner, f: Fragment) => (await rows<T>(db, f))[0];
