// "A small site sharing the store with a big one answers as fast as it would alone": the same small site (the
// same generated events, imported over HTTP) on the server holding the big store and on a server with an
// empty store, its reports timed on both, alternating request by request, in one run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setupAccount } from '../test/helpers/api.ts';
import { startServer, type TestServer } from '../test/helpers/server.ts';
import { timeAlternating, timeGet, type Timing } from './http-timing.ts';
import { importRate, type ImportRun } from './import-rate.ts';
import { ENDPOINTS, endpointUrl, scenarios } from './query-scenarios.ts';
import { STORE_TZ } from './query-store.ts';

export type SmallSiteRow = { endpoint: string; scenario: string; alone: Timing; shared: Timing };
export type SmallSiteResult = { events: number; importShared: ImportRun; importAlone: ImportRun; rows: SmallSiteRow[] };

/** A new account and site on `srv` holding `events` generated events (seed 13: not the big site's visitors). */
async function smallSite(srv: TestServer, events: number) {
  const acct = await setupAccount(srv.url, { timezone: STORE_TZ, domain: 'small.example' });
  const url = `${srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import`;
  const run = await importRate({ url, token: acct.token, events, seed: 13, lines: 50_000 });
  return { acct, run };
}

/**
 * `big` is a server on (a copy of) the big store; a second server on an empty store in bench/out/ is started
 * beside it with the same environment and removed after.
 */
export async function compareSmallSite(big: TestServer, env: Record<string, string>, events: number, runs: number): Promise<SmallSiteResult> {
  const aloneDir = join(import.meta.dir, 'out', 'small-site-alone');
  rmSync(aloneDir, { recursive: true, force: true });
  const alone = await startServer({ dataDir: aloneDir, env });
  try {
    const shared = await smallSite(big, events);
    const solo = await smallSite(alone, events);
    // Each import ends with a compaction (marks, merges); let both settle before timing.
    await Bun.sleep(5_000);
    const rows: SmallSiteRow[] = [];
    for (const s of scenarios(STORE_TZ)) {
      for (const e of ENDPOINTS) {
        const t = await timeAlternating(runs, {
          alone: () => timeGet(endpointUrl(alone.url, solo.acct.orgId, solo.acct.site.id, e, s), solo.acct.token),
          shared: () => timeGet(endpointUrl(big.url, shared.acct.orgId, shared.acct.site.id, e, s), shared.acct.token),
        });
        rows.push({ endpoint: e, scenario: s.name, alone: t.alone!, shared: t.shared! });
      }
    }
    return { events, importShared: shared.run, importAlone: solo.run, rows };
  } finally {
    await alone.cleanup();
  }
}
