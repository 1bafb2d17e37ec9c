// Entry point: sizes Bun's worker-thread pool, then starts the server (start.ts). It imports nothing before
// that: loading a module starts the pool, and Bun reads its size once, from the C environment, as it starts.
// That one pool runs every DuckDB statement (N-API async work, held for the statement's whole run) and every
// async file operation (the ingest log's writes and syncs among them), one thread per core by default: on
// 2 cores a load's statement and a compaction merge took both threads, and the event route's 202s (waiting for
// their batch's sync) and every query waited behind them (bench/mixed.ts). Under Deno nothing is set: its file
// operations run on a blocking pool of their own.
declare const Bun: unknown;

/**
 * Threads for every DuckDB connection of the server's pool (4: server.ts) to run a statement, with some left
 * for file operations (never fewer than Bun's own default, one per core); an idle thread costs only its stack.
 * An operator's UV_THREADPOOL_SIZE wins.
 */
const POOL_THREADS = String(Math.max(8, navigator.hardwareConcurrency || 1));

/** Sets UV_THREADPOOL_SIZE in the C environment through libc (Bun's process.env does not reach it). */
function sizeThreadPool(): boolean {
  const ffi = (import.meta as unknown as { require: (id: string) => typeof import('bun:ffi') }).require('bun:ffi');
  // Held in variables until the call returns (setenv copies them).
  const name = Buffer.from('UV_THREADPOOL_SIZE\0');
  const value = Buffer.from(`${POOL_THREADS}\0`);
  for (const lib of ['libc.so.6', `libc.musl-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}.so.1`]) {
    try {
      const libc = ffi.dlopen(lib, { setenv: { args: [ffi.FFIType.ptr, ffi.FFIType.ptr, ffi.FFIType.i32], returns: ffi.FFIType.i32 } });
      return libc.symbols.setenv(ffi.ptr(name), ffi.ptr(value), 1) === 0;
    } catch {
      // Not this libc: try the next.
    }
  }
  return false;
}

let sized = true;
if (typeof Bun !== 'undefined' && process.platform === 'linux' && !process.env.UV_THREADPOOL_SIZE) {
  try { sized = sizeThreadPool(); } catch { sized = false; }
}
const { log } = await import('./log.ts');
if (!sized) log.warn(`could not size the worker-thread pool; set UV_THREADPOOL_SIZE=${POOL_THREADS} so that queries and event writes do not wait behind loads`);
await import('./start.ts');
