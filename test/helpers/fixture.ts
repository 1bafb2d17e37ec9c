// The fixture most test files share: one server per file (fresh DATA_DIR) with named accounts on it,
// started before the file's tests and cleaned up after them.
import { afterAll, beforeAll } from 'bun:test';
import { startServer, type TestServer } from './server.ts';
import { setupAccount } from './api.ts';

export type Account = Awaited<ReturnType<typeof setupAccount>>;
type ServerOptions = Parameters<typeof startServer>[0];
type AccountOptions = Parameters<typeof setupAccount>[1];

/**
 * Registers the file's beforeAll/afterAll: starts a server, then sets up each named account (its own user,
 * organization and site; a key when `scopes` are given), in order. Read the fields inside tests and hooks;
 * a test may replace `srv` (a restart on the same DATA_DIR): the last one is cleaned up.
 */
export function withServer<K extends string = never>(opts: { server?: ServerOptions; accounts?: Record<K, AccountOptions>; timeout?: number } = {}) {
  const fx = {} as { srv: TestServer } & Record<K, Account>;
  beforeAll(async () => {
    fx.srv = await startServer(opts.server);
    for (const [name, o] of Object.entries(opts.accounts ?? {}) as [K, AccountOptions][]) (fx as Record<K, Account>)[name] = await setupAccount(fx.srv.url, o);
  }, opts.timeout);
  afterAll(async () => {
    await fx.srv?.cleanup();
  });
  return fx;
}
