// What the query benches share: the server on the store with a copy of its database beside it for the
// hand-written side, the loop that times one HTTP request against one hand-written statement, and the summary line.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Database } from '../src/storage/database.ts';
import { type Fragment } from '../src/storage/sql.ts';
import { ParquetManifest, type ParquetFile } from '../src/storage/parquet-layout.ts';
import { startServer, type TestServer } from '../test/helpers/server.ts';

/** NaN (a failed run) sorts last, so a p50 is NaN only when at least half the runs failed. */
export const p50 = (xs: number[]) => [...xs].sort((a, b) => (isNaN(a) ? 1 : isNaN(b) ? -1 : a - b))[Math.floor(xs.length / 2)]!;

/**
 * The hand-written side reads a copy of the database file (the server holds the original's lock) and the
 * same Parquet files, listed from parquet_files without the manifest's orphan sweep. It runs each statement as a
 * one-off (prepared, run, destroyed); the server keeps its prepared statements per connection and reuses them by
 * text (src/storage/statement-cache.ts), which only tells on a few-millisecond cell such as realtime.
 */
export async function openCopy(dataDir: string, name: string, memory: string) {
  const dir = join(import.meta.dir, 'out', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(dataDir, 'tern.duckdb'), join(dir, 'tern.duckdb'));
  const db = await Database.open(dir, 1, memory);
  const manifest = new ParquetManifest(dataDir);
  for (const f of await db.query<ParquetFile>(`SELECT path, tbl, site_id, month, rows, min_ts::VARCHAR AS min_ts, max_ts::VARCHAR AS max_ts FROM parquet_files`)) manifest.add(f);
  return { db, manifest, cleanup: async () => { await db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

/** Warm-up pairs before the timed runs: at least one, more while they take under WARM_MS in all (up to WARM_RUNS). */
const WARM_RUNS = 10;
const WARM_MS = 500;

/**
 * HTTP request and hand-written statement alternate run by run, so both see the same machine load. Each cell is
 * first warmed up: one pair, then more while the pairs so far took under half a second (at most ten). A server
 * answers a request path many times over; a few-millisecond cell timed after a single warm-up measured the JIT
 * still compiling that path (realtime: ~5 ms after one warm-up, ~1.9 ms over a long run of the same request)
 * against a statement that needs no warming. A failed run counts as NaN and is logged under `label`. `body` is
 * the last 200's text.
 */
export async function timeSideBySide(label: string, runs: number, request: () => Promise<Response>, db: Database, stmt: Fragment) {
  const http: number[] = [];
  const hand: number[] = [];
  let body = '';
  const pair = async (timed: boolean) => {
    let t0 = performance.now();
    const r = await request();
    const text = await r.text();
    if (timed) http.push(r.status === 200 ? performance.now() - t0 : NaN);
    if (r.status !== 200) console.log(`${label}: HTTP ${r.status} ${text}`);
    else body = text;
    t0 = performance.now();
    const ok = await db.query(stmt.sql, stmt.params).then(() => true, (err) => (console.log(`${label}: SQL ${err.message.split('\n')[0]}`), false));
    if (timed) hand.push(ok ? performance.now() - t0 : NaN);
  };
  const w0 = performance.now();
  for (let i = 0; i < WARM_RUNS && (i === 0 || performance.now() - w0 < WARM_MS); i++) await pair(false);
  for (let i = 0; i < runs; i++) await pair(true);
  return { http: p50(http), sql: p50(hand), body };
}

/** The server on the store (DuckDB memory_limit `memory`) and the copy beside it, for `fn`; both stopped after. */
export async function withServerAndCopy<T>(dataDir: string, copyName: string, memory: string, fn: (srv: TestServer, copy: Awaited<ReturnType<typeof openCopy>>) => Promise<T>): Promise<T> {
  const srv = await startServer({ dataDir, env: { DUCKDB_MEMORY_LIMIT: memory } });
  const copy = await openCopy(dataDir, copyName, memory);
  try {
    return await fn(srv, copy);
  } finally {
    await copy.cleanup();
    await srv.stop();
  }
}

/** The line above a results table: what ran, and under what load. */
export const runSummary = (events: number, memory: string, runs: number) =>
  `\n${events.toLocaleString('en')} events, DuckDB memory_limit ${memory}, p50 of ${runs} runs (ms), load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`;
