// One server with the hand-countable fixture loaded, shared by the analytics test files.
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { FIXTURE } from './fixture.ts';
import { importAll } from '../helpers/import.ts';

export type Fixture = Awaited<ReturnType<typeof loadFixture>>;

export async function loadFixture() {
  const srv: TestServer = await startServer();
  const acc = await setupAccount(srv.url, { timezone: 'Europe/Berlin', scopes: ['analytics:read'] });
  const patched = await acc.api.patch(`/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}`, { currency: 'EUR' }, acc.token);
  if (patched.status !== 200) throw new Error(patched.text);
  await importAll(srv.url, acc, FIXTURE);
  const sitePath = `/api/v1/organizations/${acc.orgId}/sites/${acc.site.id}`;
  /** GET an analytics endpoint with the API key; `params` become the query string (filters JSON-encoded). */
  const get = (endpoint: string, params: Record<string, unknown> = {}) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) q.set(k, typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
    return acc.api.get(`${sitePath}/analytics/${endpoint}?${q}`, acc.key);
  };
  /** The data of a 200 answer (fails the test with the body otherwise). */
  const data = async (endpoint: string, params: Record<string, unknown> = {}) => {
    const r = await get(endpoint, params);
    if (r.status !== 200) throw new Error(`${endpoint} ${JSON.stringify(params)} → ${r.status} ${r.text}`);
    return r.body.data;
  };
  return { srv, acc, sitePath, get, data };
}

/** 7 days ending on the fixture's busiest (and DST) day. */
export const WEEK = { period: '7d', date: '2025-10-26' } as const;
