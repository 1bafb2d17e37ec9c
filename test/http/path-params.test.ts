// Hostile path IDs (invalid UTF-8, overlong, NUL, traversal, 10 KB, mixed case) on every route with a path
// parameter: the same 404 a well-formed unknown id gets, after contract §4's credential checks, never a 5xx.
import { beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';

/** Every route template with a path parameter and its methods, read from the OpenAPI document (new routes join by themselves). */
let ops: { method: string; template: string; params: string[] }[] = [];
/** Several keys with every scope: 600 requests a minute each would not carry the whole table on one. */
const keys: string[] = [];
let narrowKey: string;

const ALL_SCOPES = ['analytics:read', 'sites:read', 'goals:read', 'goals:write', 'funnels:read', 'funnels:write', 'annotations:read', 'annotations:write', 'visitors:read'];

const fx = withServer({ server: { env: { AUTH_RATE_LIMIT: '50' } }, accounts: { a: { scopes: ALL_SCOPES }, b: { scopes: ALL_SCOPES } } });

const NOT_FOUND: Record<string, string> = {
  orgId: 'Organization not found',
  siteId: 'Site not found',
  goalId: 'Goal not found',
  funnelId: 'Funnel not found',
  visitorId: 'Visitor not found',
  keyId: 'API key not found',
  annotationId: 'Annotation not found',
  linkId: 'Shared link not found',
  token: 'Shared link not found',
};

/** The shared links' public side takes no credential: the link's token in the path is the credential. */
const isPublic = (template: string) => template.startsWith('/api/v1/share/');

/** Raw path segments, sent as they are (fetch leaves percent-escapes alone). */
const HOSTILE: [string, string][] = [
  ['lone surrogate', '%ED%AE%9Cp'],
  ['lone surrogate, lower-case escapes', '%ed%ae%9c'],
  ['truncated sequence', '%E0%A7'],
  ['truncated at the end', 'abc%E2%82'],
  ['overlong slash', '%C0%AF'],
  ['overlong NUL', '%C0%80'],
  ['NUL', '%00'],
  ['NUL inside a uuid', '00000000-0000-0000-0000-%0000000000000'],
  ['stray percent', '%'],
  ['bad hex', '%zz'],
  ['lone continuation byte', '%80'],
  ['0xFF', '%FF%FE'],
  ['encoded traversal', '..%2F..%2F'],
  ['encoded backslash traversal', '..%5C..%5C'],
  ['valid UTF-8, unknown', '%C3%A9t%C3%A9'],
  ['10 KB id', 'a'.repeat(10 * 1024)],
  ['10 KB of invalid UTF-8', '%FF'.repeat(3414)],
  ['mixed-case unknown uuid', '0000000A-bCdE-4f00-8A00-00000000000F'],
  ['uuid with a bad tail', `00000000-0000-4000-8000-000000000000%E0%A7`],
];

/** Sends each request once per credential until the route takes it (a key on data routes, the session elsewhere). */
async function send(method: string, path: string, token?: string) {
  const body = method === 'POST' || method === 'PATCH' ? '{}' : undefined;
  const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(fx.srv.url + path, { method, headers, body });
  const text = await r.text();
  let json: any;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: r.status, body: json };
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** The template with the given values; otherwise org a's real org and site, and a well-formed unknown id for the rest. */
function fill(template: string, values: Record<string, string>) {
  const base: Record<string, string> = { orgId: fx.a.orgId, siteId: fx.a.site.id };
  return template.replace(/\{(\w+)\}/g, (_, p: string) => values[p] ?? base[p] ?? UNKNOWN);
}
/** Every parameter but {orgId} hostile. */
const pastOrg = (params: string[], v: string) => Object.fromEntries(params.filter((p) => p !== 'orgId').map((p) => [p, v]));

/** Session-only routes refuse keys with one fixed 403: those get the session token, the others rotate the keys. */
const sessionOnly = new Set<string>();
let turn = 0;
const tokenFor = (op: { method: string; template: string }) => (sessionOnly.has(`${op.method} ${op.template}`) ? fx.a.token : keys[turn++ % keys.length]!);

beforeAll(async () => {
  keys.push(fx.a.key);
  for (let i = 0; i < 6; i++) keys.push((await fx.a.api.post(`/api/v1/organizations/${fx.a.orgId}/api-keys`, { name: `k${i}`, scopes: ALL_SCOPES }, fx.a.token)).body.data.key);
  narrowKey = (await fx.a.api.post(`/api/v1/organizations/${fx.a.orgId}/api-keys`, { name: 'narrow', scopes: ['sites:read'] }, fx.a.token)).body.data.key;
  const doc = await (await fetch(`${fx.srv.url}/api/v1/openapi.json`)).json();
  for (const [template, methods] of Object.entries<Record<string, unknown>>(doc.paths)) {
    const params = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    if (params.length === 0) continue;
    for (const method of Object.keys(methods)) {
      const op = { method: method.toUpperCase(), template, params };
      ops.push(op);
      const probe = await send(op.method, fill(template, { orgId: '%E0%A7' }), fx.a.key);
      if (probe.status === 403 && probe.body?.error === 'API keys cannot access this endpoint') sessionOnly.add(`${op.method} ${template}`);
    }
  }
});

test('the route table covers every path parameter the issue names', () => {
  const seen = new Set(ops.flatMap((o) => o.params));
  for (const p of Object.keys(NOT_FOUND)) expect(seen).toContain(p);
  expect(ops.length).toBeGreaterThan(35);
  expect(sessionOnly.size).toBeGreaterThan(5);
});

test('every hostile id in every path parameter of every route: 404 "<thing> not found", never 5xx', async () => {
  const wrong: string[] = [];
  for (const op of ops) {
    for (const param of op.params) {
      for (const [label, hostile] of HOSTILE) {
        const r = await send(op.method, fill(op.template, { [param]: hostile }), tokenFor(op));
        if (r.status !== 404 || r.body?.error !== NOT_FOUND[param]) wrong.push(`${op.method} ${op.template} {${param}} = ${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`);
      }
    }
  }
  expect(wrong).toEqual([]);
}, 180_000);

test('credential checks come first, in contract §4 order, even with hostile ids', async () => {
  const wrong: string[] = [];
  const expectOne = (what: string, r: { status: number; body: any }, status: number, error: string | RegExp) => {
    const ok = r.status === status && (typeof error === 'string' ? r.body?.error === error : error.test(r.body?.error));
    if (!ok) wrong.push(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`);
  };
  for (const op of ops) {
    if (isPublic(op.template)) continue;
    const session = sessionOnly.has(`${op.method} ${op.template}`);
    const what = `${op.method} ${op.template}`;
    const everywhere = op.template.replace(/\{\w+\}/g, '%ED%AE%9Cp');
    // 1. No Authorization header.
    expectOne(`${what} without credentials`, await send(op.method, everywhere), 401, session ? 'Invalid or expired session' : 'Missing or invalid Authorization header');
    // 2. An unknown key.
    expectOne(`${what} unknown key`, await send(op.method, everywhere, `sk_live_${'0'.repeat(32)}`), session ? 403 : 401, session ? 'API keys cannot access this endpoint' : 'Invalid or expired API key');
    // 5. Another organization's credential: the org check answers, whatever follows it.
    const foreign = session ? fx.b.token : fx.b.key;
    expectOne(`${what} foreign credential, hostile org`, await send(op.method, everywhere, foreign), 404, 'Organization not found');
    expectOne(`${what} foreign credential, real org`, await send(op.method, fill(op.template, pastOrg(op.params, '%ED%AE%9Cp')), foreign), 404, 'Organization not found');
    // 6. A key without the route's scope: 403 before the site or resource lookup (sites:read routes reach the 404).
    if (!session) {
      const r = await send(op.method, fill(op.template, pastOrg(op.params, '%ED%AE%9Cp')), narrowKey);
      const missing = r.status === 403 && /^API key missing required scope: /.test(r.body?.error);
      const reachedLookup = op.params.length === 1 ? r.status === 200 : r.status === 404 && r.body?.error === NOT_FOUND[op.params[1]!];
      if (!missing && !reachedLookup) wrong.push(`${what} narrow key: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }
  expect(wrong).toEqual([]);
}, 120_000);

test('real ids in mixed case still resolve; the same ids with junk appended do not', async () => {
  const upper = (s: string) => s.replace(/[a-f]/g, (c, i) => (i % 2 ? c.toUpperCase() : c));
  const ok = await send('GET', `/api/v1/organizations/${upper(fx.a.orgId)}/sites/${upper(fx.a.site.id)}`, fx.a.token);
  expect(ok).toMatchObject({ status: 200, body: { data: { id: fx.a.site.id } } });
  const junk = await send('GET', `/api/v1/organizations/${fx.a.orgId}/sites/${fx.a.site.id}%E0%A7`, fx.a.token);
  expect(junk).toMatchObject({ status: 404, body: { error: 'Site not found' } });
  // The server is still answering normally after the whole table.
  expect((await send('GET', `/api/v1/organizations/${fx.a.orgId}/sites`, fx.a.key)).status).toBe(200);
  expect(fx.srv.logs()).not.toContain('unhandled error');
});
