// Prepared statements kept per connection and reused by their SQL text: the server runs the same texts over and
// over (every value is a bound parameter, file lists included), and on a small table parsing and planning is
// most of a statement's time (realtime over an empty hot table: 2.4 ms prepared each time, 1.5 ms reused).
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';

/** Per connection; the least recently used statement goes first. Plans are small, a few KB each. */
const SIZE = 32;

type Entry = { statement: DuckDBPreparedStatement; busy: boolean };
const caches = new WeakMap<DuckDBConnection, Map<string, Entry>>();

/**
 * Runs `use` with a prepared statement for `sql` on `c`: the cached one when it is free, else a new one, which
 * is cached when the cache has no entry for the text. A statement whose run is still pending is busy (binding it
 * again would change that run's values), so a second use at once gets a statement of its own, destroyed after.
 * DuckDB rebinds a reused statement itself when the catalog changed since it was prepared (a migration, a
 * dropped temporary table) or when its parameters decide the plan (a table function's file list).
 */
export async function withPrepared<T>(c: DuckDBConnection, sql: string, use: (p: DuckDBPreparedStatement) => Promise<T>): Promise<T> {
  let cache = caches.get(c);
  if (!cache) caches.set(c, (cache = new Map()));
  const hit = cache.get(sql);
  if (hit && !hit.busy) {
    cache.delete(sql);
    cache.set(sql, hit);
    return runBusy(hit, use);
  }
  const statement = await c.prepare(sql);
  if (hit || cache.has(sql)) {
    try {
      return await use(statement);
    } finally {
      statement.destroySync();
    }
  }
  const entry = { statement, busy: false };
  cache.set(sql, entry);
  if (cache.size > SIZE) {
    const [oldest, e] = cache.entries().next().value!;
    if (!e.busy) {
      cache.delete(oldest);
      e.statement.destroySync();
    }
  }
  return runBusy(entry, use);
}

async function runBusy<T>(e: Entry, use: (p: DuckDBPreparedStatement) => Promise<T>): Promise<T> {
  e.busy = true;
  try {
    return await use(e.statement);
  } finally {
    // A kept statement would otherwise hold its last values (a long file list, an import's paths) until reused.
    e.statement.clearBindings();
    e.busy = false;
  }
}

/** Destroys `c`'s cached statements: before the connection itself is closed. */
export function dropStatements(c: DuckDBConnection): void {
  const cache = caches.get(c);
  if (!cache) return;
  for (const e of cache.values()) e.statement.destroySync();
  caches.delete(c);
}
