// main.ts sizes Bun's worker-thread pool (8, or the operator's UV_THREADPOOL_SIZE): DuckDB statements hold
// its threads while they run, and the event route's log syncs must not wait behind them. Read from the
// server's thread names in /proc (Linux; Bun names one more thread "Bun Pool" than the pool holds), after
// enough concurrent queries to need more than 2 threads.
import { afterEach, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';

let srv: TestServer | undefined;
afterEach(async () => { await srv?.cleanup(); srv = undefined; });

/** Threads of the server's worker pool once 16 analytics requests (4 DuckDB connections' worth and more) ran at once. */
async function poolThreads(env: Record<string, string>): Promise<number> {
  srv = await startServer({ env });
  const acct = await setupAccount(srv.url, { scopes: ['analytics:read'] });
  const base = `${srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics`;
  const answers = await Promise.all(['stats', 'charts', 'pages', 'sources'].flatMap((e) => [...Array(4)].map(async () => {
    const r = await fetch(`${base}/${e}?period=12mo`, { headers: { authorization: `Bearer ${acct.key}` } });
    await r.arrayBuffer();
    return r.status;
  })));
  expect(answers.every((s) => s === 200)).toBe(true);
  const dir = `/proc/${srv.proc.pid}/task`;
  return readdirSync(dir).filter((t) => readFileSync(`${dir}/${t}/comm`, 'utf8').startsWith('Bun Pool')).length;
}

test.skipIf(process.platform !== 'linux')('the server runs DuckDB statements and file operations on a pool of 8 threads (or one per core, if more)', async () => {
  const threads = await poolThreads({ UV_THREADPOOL_SIZE: '' });
  // Bun's default on 2 cores: 2 (+1).
  expect(threads).toBeGreaterThan(2 + 1);
  expect(threads).toBeLessThanOrEqual(Math.max(8, navigator.hardwareConcurrency) + 1);
}, 60_000);

test.skipIf(process.platform !== 'linux')("an operator's UV_THREADPOOL_SIZE is kept", async () => {
  expect(await poolThreads({ UV_THREADPOOL_SIZE: '3' })).toBeLessThanOrEqual(3 + 1);
}, 60_000);
