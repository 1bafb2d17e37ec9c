// Two Tern nodes behind nginx's consistent hash, sharing PostgreSQL (metadata) and s3rver (each node's sealed
// Parquet under its own prefix), each answering with ClickHouse (chdb) over every node's objects
// (CLICKHOUSE_READ=objects, STORAGE_READ_PREFIXES). Tracker events from many client addresses go through the
// router; each is counted once, both nodes answer every report identically, and the answers equal a single
// DuckDB node given the same events (by import, with the timestamps the nodes stored). A visitor whose address
// moves to the other node is cut into one visit per node: counted here.
// The events go through a router hashing on X-Forwarded-For as the test sets it (the variant for a router behind
// another proxy), so clients can come from public addresses that Tern locates; a second router hashing on
// $remote_addr (the router in front) is checked with clients bound to 127.0.0.x source addresses.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';
import { startS3, type TestS3 } from '../helpers/s3rver.ts';
import { CHDB, sayIfNoChdb } from '../helpers/chdb.ts';
import { createDatabase, postgresUnavailable, startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { nginxUnavailable, startRouter, type TestRouter } from '../helpers/nginx.ts';

sayIfNoChdb('test/storage/nodes-behind-router.test.ts');
const unavailable = postgresUnavailable() ?? nginxUnavailable();
if (unavailable) console.log(unavailable);
const skip = Boolean(unavailable) || !CHDB;

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
];
const PAGES = ['/', '/pricing', '/blog/one', '/blog/two', '/docs', '/signup'];
const REFERRERS = ['', 'https://www.google.com/', 'https://news.ycombinator.com/item?id=1', 'https://duckduckgo.com/'];
/** Client addresses of several networks (the router hashes on them; Tern locates them). */
const IPS = Array.from({ length: 24 }, (_, i) => [`81.2.69.${10 + i}`, `89.160.20.${100 + i}`, `2.125.160.${200 + i}`, `175.16.199.${i + 1}`][i % 4]!);

type Sent = { session_id: string; ip: string; ua: string; body: Record<string, unknown> };
type Acct = Awaited<ReturnType<typeof setupAccount>>;
type Site = { id: string; public_id: string };

let pg: TestPostgres;
let s3: TestS3;
let a: TestServer;
let b: TestServer;
let ref: TestServer;
let router: TestRouter;
let nodes: Acct;
let refAcct: Acct;
/** The second site, where one visitor's address moves from one node to the other. */
let moveSite: { nodes: Site; ref: Site };
const sent: Sent[] = [];
const servedBy = new Map<string, number>();
let moved: { from: string; to: string };

/** Sends one tracker event through the router as the client at `ip`; the node that took it, by port. */
async function track(site: Site, ip: string, ua: string, body: Record<string, unknown>, record = true): Promise<string> {
  const session_id = `s${sent.length}-${Math.random().toString(36).slice(2, 8)}`;
  const full = { site_id: site.public_id, session_id, ...body };
  const post = () => fetch(`${router.url}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'text/plain', 'user-agent': ua, 'x-forwarded-for': ip }, body: JSON.stringify(full) });
  let r = await post();
  // A site made on one node reaches the other's cache by NOTIFY: until then that node answers 404 and stores nothing.
  for (let tries = 0; r.status === 404 && tries < 40; tries++) {
    await r.arrayBuffer();
    await Bun.sleep(50);
    r = await post();
  }
  await r.arrayBuffer();
  if (r.status !== 202) throw new Error(`event refused: ${r.status}`);
  const node = r.headers.get('x-tern-upstream')!;
  servedBy.set(node, (servedBy.get(node) ?? 0) + 1);
  if (record) sent.push({ session_id, ip, ua, body: full });
  return node;
}

/** One visit: 1–6 pageviews, now and then a custom event with a property. */
async function visit(site: Site, ip: string, ua: string, n: number) {
  for (let i = 0; i < 1 + (n % 6); i++) {
    const page = PAGES[(n + i * 7) % PAGES.length]!;
    await track(site, ip, ua, { url: `https://example.com${page}${i === 0 && n % 5 === 0 ? '?utm_source=newsletter&utm_medium=email' : ''}`, ...(i === 0 && REFERRERS[n % 4] ? { referrer: REFERRERS[n % 4] } : {}) });
    if ((n + i) % 4 === 0) await track(site, ip, ua, { url: `https://example.com${page}`, event_name: 'Signup', properties: { plan: ['free', 'pro'][n % 2]! } });
  }
}

const onNode = (srv: TestServer, acct: Acct, site: Site) => ({
  get: (path: string, params: Record<string, unknown> = {}) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) q.set(k, typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
    return client(srv.url).get(`/api/v1/organizations/${acct.orgId}/sites/${site.id}/${path}?${q}`, acct.key);
  },
  post: (path: string, body: unknown) => client(srv.url).call('POST', `/api/v1/organizations/${acct.orgId}/sites/${site.id}/${path}`, { body, token: acct.key }),
});

/** The node's own stored events of a site (export reads the node's local files). */
async function exported(srv: TestServer, acct: Acct, site: Site): Promise<Record<string, any>[]> {
  const r = await fetch(`${srv.url}/api/v1/organizations/${acct.orgId}/sites/${site.id}/export?table=events&format=ndjson`, { headers: { authorization: `Bearer ${acct.token}` } });
  if (r.status !== 200) throw new Error(`export: ${r.status} ${await r.text()}`);
  return (await r.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function eventually<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await probe().catch(() => undefined);
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await Bun.sleep(250);
  }
}

/** What a node stored, as import lines for the reference: the node's timestamps, the client's address and UA. */
async function replayInto(refSite: Site, site: Site, count: number) {
  const bySession = new Map(sent.map((s) => [s.session_id, s]));
  const rows = await eventually(async () => {
    const all = [...(await exported(a, nodes, site)), ...(await exported(b, nodes, site))];
    return all.filter((r) => bySession.has(r.session_id)).length === count ? all : undefined;
  }, 30_000, 'events stored on the nodes');
  const lines = rows.map((r) => {
    const s = bySession.get(r.session_id)!;
    return { ...s.body, site_id: undefined, timestamp: new Date(`${String(r.timestamp).replace(' ', 'T').replace(/Z?$/, 'Z')}`).toISOString(), ip: s.ip, user_agent: s.ua };
  });
  await importAll(ref.url, { token: refAcct.token, orgId: refAcct.orgId, site: refSite }, lines);
  return rows;
}

beforeAll(async () => {
  if (skip) return;
  [pg, s3] = await Promise.all([startPostgres(), startS3()]);
  const databaseUrl = await createDatabase(pg, 'routed');
  const node = (prefix: string) => ({
    DATABASE_URL: databaseUrl, TRUST_PROXY: 'true', TERN_TEST_HOOKS: 'true',
    ANALYTICS_ENGINE: 'clickhouse', CLICKHOUSE_URL: `chdb:${mkdtempSync(join(tmpdir(), 'tern-chdb-'))}`, CLICKHOUSE_READ: 'objects',
    ...s3.env(prefix), STORAGE_DELETE_GRACE_SECONDS: '60', STORAGE_READ_PREFIXES: 'nodes/a,nodes/b',
  });
  [a, b, ref] = await Promise.all([startServer({ env: node('nodes/a') }), startServer({ env: node('nodes/b') }), startServer({ env: { TRUST_PROXY: 'true' } })]);
  // A router behind a proxy that already set X-Forwarded-For: the test's clients all come from 127.0.0.1.
  router = await startRouter([a.url, b.url], '$http_x_forwarded_for');
  [nodes, refAcct] = await Promise.all([a.url, ref.url].map((u) => setupAccount(u, { scopes: ['analytics:read'] })));
  const second = async (acct: Acct, url: string) => (await client(url).post(`/api/v1/organizations/${acct.orgId}/sites`, { domain: 'moves.example.com', timezone: 'UTC' }, acct.token)).body.data as Site;
  moveSite = { nodes: await second(nodes, a.url), ref: await second(refAcct, ref.url) };

  // Each client address: one visit per user agent, eight clients at a time.
  const jobs = IPS.flatMap((ip, i) => UAS.map((ua, j) => () => visit(nodes.site, ip, ua, i * 3 + j)));
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((j) => j()));

  // Two visitors whose address moves: three pageviews from an address on one node, then three from one on the
  // other. One anonymous (its id hashes the address, so even one node sees two), one with the tracker's visitor_uid.
  const first = await track(moveSite.nodes, '81.2.69.160', UAS[0]!, { url: 'https://moves.example.com/' });
  // An address the router sends to the other node (asked of /health: the same hash for every request).
  const other = await (async () => {
    for (let i = 1; i < 250; i++) {
      const ip = `89.160.20.${i}`;
      const r = await fetch(`${router.url}/health`, { headers: { 'x-forwarded-for': ip } });
      await r.arrayBuffer();
      if (r.headers.get('x-tern-upstream') !== first) return ip;
    }
    throw new Error('no address routed to the other node');
  })();
  for (const p of ['/a', '/b']) await track(moveSite.nodes, '81.2.69.160', UAS[0]!, { url: `https://moves.example.com${p}` });
  for (const p of ['/c', '/d', '/e']) await track(moveSite.nodes, other, UAS[0]!, { url: `https://moves.example.com${p}` });
  for (const p of ['/u1', '/u2', '/u3']) await track(moveSite.nodes, '81.2.69.160', UAS[1]!, { url: `https://moves.example.com${p}`, visitor_uid: 'u-moves' });
  for (const p of ['/u4', '/u5', '/u6']) await track(moveSite.nodes, other, UAS[1]!, { url: `https://moves.example.com${p}`, visitor_uid: 'u-moves' });
  moved = { from: '81.2.69.160', to: other };

  // Replayed into the reference with the nodes' own timestamps, then every visit sealed and uploaded on both nodes.
  const main = sent.filter((s) => s.body.site_id === nodes.site.public_id).length;
  await replayInto(refAcct.site, nodes.site, main);
  await replayInto(moveSite.ref, moveSite.nodes, sent.length - main);
  for (const srv of [a, b]) srv.proc.kill('SIGUSR1');
  await eventually(async () => (a.logs().includes('test hook: visits sealed') && b.logs().includes('test hook: visits sealed')) || undefined, 30_000, 'visits sealed');
}, 240_000);

afterAll(async () => {
  await router?.stop();
  await Promise.all([a?.cleanup(), b?.cleanup(), ref?.cleanup()]);
  await s3?.cleanup();
  await pg?.stop();
});

const DAY = () => ({ period: 'day', date: new Date().toISOString().slice(0, 10) });

describe.skipIf(skip)('two nodes behind a consistent-hash router', () => {
  test('the router spread the clients over both nodes, and each event is stored once', async () => {
    expect(servedBy.size).toBe(2);
    for (const n of servedBy.values()) expect(n).toBeGreaterThan(20);
    expect(sent.length).toBeGreaterThan(250);
    const stored = [...(await exported(a, nodes, nodes.site)), ...(await exported(b, nodes, nodes.site))].map((r) => r.session_id).sort();
    expect(stored).toEqual(sent.filter((s) => s.body.site_id === nodes.site.public_id).map((s) => s.session_id).sort());
  });

  test('hashing on the client address itself (the router in front): each address stays on one node, both are used', async () => {
    const direct = await startRouter([a.url, b.url], '$remote_addr');
    try {
      const port = Number(new URL(direct.url).port);
      // Bun's fetch cannot choose its source address; node:http's localAddress can (any 127.0.0.0/8 address).
      const upstreamFor = (localAddress: string) => new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/health', localAddress, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.headers['x-tern-upstream'])));
        });
        req.on('error', reject);
        req.end();
      });
      const seen = new Map<string, Set<string>>();
      for (let round = 0; round < 3; round++) {
        for (let i = 2; i < 34; i++) {
          const from = `127.0.0.${i}`;
          seen.set(from, (seen.get(from) ?? new Set()).add(await upstreamFor(from)));
        }
      }
      expect([...seen.values()].every((nodesOf) => nodesOf.size === 1)).toBe(true);
      expect(new Set([...seen.values()].flatMap((n) => [...n]))).toEqual(new Set([a.url, b.url].map((u) => u.replace('http://', ''))));
    } finally {
      await direct.stop();
    }
  });

  test('both nodes answer every report identically, equal to the single node given the same events', async () => {
    const [onA, onB, onRef] = [onNode(a, nodes, nodes.site), onNode(b, nodes, nodes.site), onNode(ref, refAcct, refAcct.site)];
    const want = (await onRef.get('analytics/stats', DAY())).body;
    expect(want.data.metrics.pageviews).toBeGreaterThan(150);
    // Objects count once uploaded and listed: wait until both nodes see all of them.
    for (const n of [onA, onB]) await eventually(async () => JSON.stringify((await n.get('analytics/stats', DAY())).body) === JSON.stringify(want) || undefined, 60_000, 'node sees every object');
    const asks: [string, Record<string, unknown>][] = [];
    for (const filters of [[], [{ dimension: 'page', operator: 'contains', value: 'blog' }]]) {
      const p = { ...DAY(), filters };
      asks.push(['analytics/stats', p], ['analytics/charts', p]);
      for (const [endpoint, dimension] of [['pages', 'page'], ['pages', 'entry_page'], ['pages', 'exit_page'], ['sources', 'source'], ['channels', 'channel'], ['sources', 'referrer'], ['sources', 'utm_source'], ['devices', 'browser'], ['devices', 'os'], ['devices', 'device'], ['locations', 'country'], ['locations', 'city']] as const) {
        asks.push([`analytics/${endpoint}`, { ...p, dimension }]);
      }
    }
    // The answers compared below are not trivial: the clients came from several countries, browsers and sources.
    for (const [endpoint, dimension] of [['locations', 'country'], ['devices', 'browser'], ['sources', 'source'], ['pages', 'page']]) {
      const named = (await onRef.get(`analytics/${endpoint}`, { ...DAY(), dimension })).body.data.results.filter((r: { name: string }) => r.name !== '(none)' && r.name !== 'Direct / None');
      expect({ dimension, named: named.length >= 3 }).toEqual({ dimension, named: true });
    }
    for (const [path, params] of asks) {
      const [x, y, r] = await Promise.all([onA.get(path, params), onB.get(path, params), onRef.get(path, params)]);
      expect({ path, params, status: r.status, error: r.body.error }).toEqual({ path, params, status: 200, error: undefined });
      expect({ path, params, a: x.body }).toEqual({ path, params, a: r.body });
      expect({ path, params, b: y.body }).toEqual({ path, params, b: r.body });
    }
    const today = new Date().toISOString().slice(0, 10);
    for (const body of [
      { metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'], dimensions: ['visit:source', 'event:page'] },
      { metrics: ['visitors', 'events'], dimensions: ['event:props:plan', 'visit:country'] },
    ]) {
      const q = { date_range: [today, today], ...body };
      const [x, y, r] = await Promise.all([onA.post('query', q), onB.post('query', q), onRef.post('query', q)]);
      expect(r.status).toBe(200);
      expect(x.body).toEqual(r.body);
      expect(y.body).toEqual(r.body);
    }
  }, 180_000);

  test('visitors whose address moves to the other node: their visit is cut in two', async () => {
    const [onA, onB, onRef] = [onNode(a, nodes, moveSite.nodes), onNode(b, nodes, moveSite.nodes), onNode(ref, refAcct, moveSite.ref)];
    const count = async (n: typeof onA, uid: boolean) => {
      const m = (await n.get('analytics/stats', { ...DAY(), filters: [{ dimension: 'page', operator: 'contains', value: '/u' }].filter(() => uid) })).body.data.metrics;
      return { visitors: m.visitors, visits: m.visits, pageviews: m.pageviews };
    };
    const single = { anonymousAndUid: await count(onRef, false), uid: await count(onRef, true) };
    await eventually(async () => (await count(onA, false)).pageviews === 12 || undefined, 60_000, 'moved visitors seen');
    const across = { anonymousAndUid: await count(onA, false), uid: await count(onA, true) };
    console.log(`visitors moved ${moved.from} → ${moved.to}: one node ${JSON.stringify(single)}, two nodes ${JSON.stringify(across)}`);
    // One node: the anonymous visitor is two already (its id hashes the address); the uid visitor is one visit.
    expect(single).toEqual({ anonymousAndUid: { visitors: 3, visits: 3, pageviews: 12 }, uid: { visitors: 1, visits: 1, pageviews: 6 } });
    // Two nodes: each node's sessionizer opens its own visit, so the uid visitor's one visit counts as two.
    expect(across).toEqual({ anonymousAndUid: { visitors: 3, visits: 4, pageviews: 12 }, uid: { visitors: 1, visits: 2, pageviews: 6 } });
    expect({ anonymousAndUid: await count(onB, false), uid: await count(onB, true) }).toEqual(across);
  }, 90_000);
});
