// Auth figures: login time for a known vs an unknown email (must match), and API-key request throughput.
// Run: ./node_modules/.bin/bun bench/auth.ts   (prints figures; asserts nothing)
import { startServer } from '../test/helpers/server.ts';
import { client } from '../test/helpers/api.ts';

const srv = await startServer({ env: { AUTH_RATE_LIMIT: '50' } });
const api = client(srv.url);
try {
  const creds = { email: 'bench@example.com', password: 'correct horse battery' };
  const reg = await api.post('/api/v1/auth/register', creds);
  const { token, organization } = reg.body.data;

  // Login timing: interleaved so drift on a shared machine hits both sides alike. 40 logins < AUTH_RATE_LIMIT.
  const times: Record<string, number[]> = { known: [], unknown: [], wrong: [] };
  for (let i = 0; i < 16; i++) {
    for (const [kind, body] of [
      ['known', creds],
      ['unknown', { email: `nobody${i}@example.com`, password: creds.password }],
      ['wrong', { email: creds.email, password: 'not the password' }],
    ] as const) {
      const t = performance.now();
      await api.post('/api/v1/auth/login', body);
      times[kind].push(performance.now() - t);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [kind, xs] of Object.entries(times)) console.log(`login ${kind.padEnd(8)} median ${median(xs).toFixed(1)} ms over ${xs.length}`);

  // Key throughput on GET /sites: the whole auth chain (key lookup, plan, rate limit, org, scope) per request.
  const key = (await api.post(`/api/v1/organizations/${organization.id}/api-keys`, { name: 'bench', scopes: ['sites:read'] }, token)).body.data.key;
  const path = `/api/v1/organizations/${organization.id}/sites`;
  // A made-up key of the right shape: its lookup misses once, then the miss is cached.
  const madeUp = `sk_live_${'0'.repeat(32)}`;
  for (const [label, cred] of [['api key', key], ['session', token], ['made-up key', madeUp]] as const) {
    const n = 580, conc = 20;
    const t = performance.now();
    for (let i = 0; i < n; i += conc) await Promise.all(Array.from({ length: conc }, () => fetch(srv.url + path, { headers: { authorization: `Bearer ${cred}` } }).then((r) => r.arrayBuffer())));
    const s = (performance.now() - t) / 1000;
    console.log(`GET /sites with ${label.padEnd(11)}: ${(n / s).toFixed(0)} req/s (${n} requests, ${conc} in flight, loopback)`);
  }
} finally {
  await srv.cleanup();
}
