// Cost of DATABASE_URL on the auth chain: an API-key request on a DuckDB-only server (credentials cached in
// process, rate windows in memory) against one with PostgreSQL metadata (the key looked up and the rate window
// counted in PostgreSQL on every request), side by side in alternating rounds, on one private cluster.
// Run: ./node_modules/.bin/bun bench/auth-postgres.ts   (prints figures; asserts nothing)
import { startServer, type TestServer } from '../test/helpers/server.ts';
import { client } from '../test/helpers/api.ts';
import { createDatabase, startPostgres } from '../test/helpers/postgres.ts';
import { PostgresDatabase } from '../src/storage/postgres.ts';
import { countRequest } from '../src/storage/rate-windows.ts';
import { sha256 } from '../src/security/tokens.ts';

const pg = await startPostgres();
const servers: Record<string, TestServer> = {};
try {
  servers.duckdb = await startServer();
  const url = await createDatabase(pg, 'bench');
  servers.postgres = await startServer({ env: { DATABASE_URL: url } });
  const setup = async (srv: TestServer) => {
    const api = client(srv.url);
    const reg = await api.post('/api/v1/auth/register', { email: 'bench@example.com', password: 'correct horse battery' });
    const { token, organization } = reg.body.data;
    // A fresh key per measurement: each stays under its 600 requests a minute.
    const freshKey = async () => (await api.post(`/api/v1/organizations/${organization.id}/api-keys`, { name: 'bench', scopes: ['sites:read'] }, token)).body.data;
    const drop = (id: string) => api.del(`/api/v1/organizations/${organization.id}/api-keys/${id}`, token);
    return { url: srv.url + `/api/v1/organizations/${organization.id}/sites`, freshKey, drop };
  };
  const targets = { duckdb: await setup(servers.duckdb), postgres: await setup(servers.postgres) };
  const get = (url: string, key: string) => fetch(url, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => {
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`status ${r.status}`);
  });
  const results: Record<string, { p50: number[]; rps: number[] }> = { duckdb: { p50: [], rps: [] }, postgres: { p50: [], rps: [] } };
  for (let round = 0; round < 3; round++) {
    for (const [name, t] of Object.entries(targets)) {
      const k = await t.freshKey();
      await get(t.url, k.key); // first lookup (cache miss on DuckDB) out of the figures
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const s = performance.now();
        await get(t.url, k.key);
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      const n = 380, conc = 20;
      const s = performance.now();
      for (let i = 0; i < n; i += conc) await Promise.all(Array.from({ length: conc }, () => get(t.url, k.key)));
      results[name]!.p50.push(times[100]!);
      results[name]!.rps.push(n / ((performance.now() - s) / 1000));
      await t.drop(k.id);
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [name, r] of Object.entries(results)) {
    console.log(`GET /sites with an API key, ${name.padEnd(8)}: one at a time p50 ${med(r.p50).toFixed(2)} ms; 20 in flight ${med(r.rps).toFixed(0)} req/s (median of 3 rounds)`);
  }
  // Where PostgreSQL's time goes: its two statements per request, alone, one at a time from this process.
  const meta = await PostgresDatabase.open(url, 1);
  const k = await targets.postgres.freshKey();
  const timed = async (label: string, run: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const s = performance.now();
      await run();
      times.push(performance.now() - s);
    }
    console.log(`  ${label}: p50 ${times.sort((a, b) => a - b)[250]!.toFixed(3)} ms`);
  };
  await timed('key lookup (as authenticateKey)', () => meta.one(
    `SELECT k.id::VARCHAR AS id, k.org_id::VARCHAR AS org_id, k.scopes, o.plan, k.expires_at FROM api_keys k JOIN organizations o ON o.id = k.org_id
     WHERE k.key_hash = ? AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()::TIMESTAMP)`, [sha256(k.key)]));
  await timed('rate window upsert (countRequest)', () => countRequest(meta, 'bench', 60_000));
  await meta.close();
  console.log(`postgres / duckdb: p50 ${(med(results.postgres!.p50) / med(results.duckdb!.p50)).toFixed(2)}x, throughput ${(med(results.postgres!.rps) / med(results.duckdb!.rps)).toFixed(2)}x`);
} finally {
  for (const s of Object.values(servers)) await s.cleanup();
  await pg.stop();
}
