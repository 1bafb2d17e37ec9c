// An import's staged rows, read by DuckDB while the body is still being parsed: each chunk of NDJSON lines the
// JS side finishes is written to its own file and appended, outside the writers' queue, to a table of an
// in-memory database attached beside the store (import_stage), so that reading the lines (~0.2 s per 50,000
// at 9–10M stored) runs on the other core during the parse instead of in the queue after it. The load then
// reads that table (its visitors erased meanwhile left out, as before). Nothing of it is durable: the answer
// waits for the load's commit, as it always did, and a failed import drops its table and files.
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../storage/database.ts';
import { readLogSql } from './log-format.ts';

const SCHEMA = 'import_stage';

export class ImportStage {
  private chunks = 0;
  private files: string[] = [];
  /** The appends so far, one after another (a table is created by the first). */
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  readonly table: string;

  constructor(private db: Database, private dir: string, private nonce: string) {
    this.table = `${SCHEMA}.s_${nonce}`;
  }

  /** Hands a chunk of lines (each ending in a newline) to DuckDB; returns once the file is written, not read. */
  async append(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    const file = join(this.dir, `${this.nonce}-${this.chunks}.ndjson`);
    const first = this.chunks++ === 0;
    this.files.push(file);
    await writeFile(file, text);
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        if (first) {
          // Attached once per instance; again after the instance was reopened.
          await this.db.exec(`ATTACH IF NOT EXISTS ':memory:' AS ${SCHEMA}`);
          await this.db.exec(`CREATE TABLE ${this.table} AS SELECT * FROM ${readLogSql}`, [[file]]);
        } else await this.db.exec(`INSERT INTO ${this.table} SELECT * FROM ${readLogSql}`, [[file]]);
      } catch (e) {
        this.failure = e;
      }
      rmSync(file, { force: true });
    });
  }

  /** The staged rows as a FROM-able relation, once every chunk is in; throws what a chunk's read threw. */
  async relation(): Promise<string> {
    await this.chain;
    if (this.failure) throw this.failure;
    return `(SELECT * FROM ${this.table})`;
  }

  /** Drops the table and any file left, after the appends under way. */
  async drop(): Promise<void> {
    await this.chain;
    for (const f of this.files) rmSync(f, { force: true });
    if (this.chunks) await this.db.exec(`DROP TABLE IF EXISTS ${this.table}`).catch(() => {});
  }
}
