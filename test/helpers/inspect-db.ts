// Test helper: read a stopped server's DuckDB file directly, to check what ingestion stored.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import postgres from 'postgres';

export async function queryStored<T = Record<string, any>>(dataDir: string, sql: string, params: any[] = []): Promise<T[]> {
  const inst = await DuckDBInstance.create(join(dataDir, 'tern.duckdb'), { access_mode: 'READ_ONLY' });
  try {
    const c = await inst.connect();
    await c.run("SET TimeZone = 'UTC'");
    const rows = (await c.runAndReadAll(sql, params)).getRowObjectsJS().map(plain) as T[];
    c.closeSync();
    return rows;
  } finally {
    inst.closeSync();
  }
}

/** Runs statements (SQL, or [SQL, params]) against a stopped server's DuckDB file: how tests fake an older data directory. */
export async function execStored(dataDir: string, statements: (string | [string, any[]])[]): Promise<void> {
  const inst = await DuckDBInstance.create(join(dataDir, 'tern.duckdb'));
  try {
    const c = await inst.connect();
    for (const st of statements) await (typeof st === 'string' ? c.run(st) : c.run(st[0], st[1]));
    c.closeSync();
  } finally {
    inst.closeSync();
  }
}

/**
 * SQL for every stored row of events or visits: the hot table plus the Parquet files registered in
 * parquet_files (paths relative to DATA_DIR), as compaction leaves them.
 */
export async function storedRelation(dataDir: string, tbl: 'events' | 'visits'): Promise<string> {
  const files = await queryStored<{ path: string }>(dataDir, 'SELECT path FROM parquet_files WHERE tbl = ?', [tbl]);
  if (!files.length) return `(SELECT * FROM ${tbl})`;
  const list = files.map((f) => `'${join(dataDir, f.path).replaceAll("'", "''")}'`).join(', ');
  // Visit files from before migration 0016 lack its marks: read by name (as storage/sources.ts does).
  return `(SELECT * FROM ${tbl} UNION ALL BY NAME SELECT * FROM read_parquet([${list}]${tbl === 'visits' ? ', union_by_name = true' : ''}))`;
}

const plain = (r: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.toISOString() : v]));

/** A real browser's user agent: fetch's own (Bun/…) counts as a bot and would not be stored. */
export const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** Sends one event as the tracker would; returns the HTTP status. */
export async function sendEvent(url: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
  const r = await fetch(`${url}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'text/plain', 'user-agent': BROWSER_UA, ...headers }, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return r.status;
}

/**
 * Rows of the server's metadata tables (users, sites, goals…), wherever it keeps them: PostgreSQL when it runs
 * with DATABASE_URL, else its DuckDB file (then the server must be stopped). `sql` must read the same on both.
 */
export async function queryMetadata<T = Record<string, any>>(srv: { dataDir: string; databaseUrl?: string }, sql: string): Promise<T[]> {
  if (!srv.databaseUrl) return queryStored<T>(srv.dataDir, sql);
  const pg = postgres(srv.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    return [...(await pg.unsafe(sql))] as T[];
  } finally {
    await pg.end({ timeout: 1 });
  }
}
