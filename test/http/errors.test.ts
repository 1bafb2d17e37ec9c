// One error path (contract §2): every error is {"error": "..."} alone, the right status, never a 5xx or internals for bad input.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount, type Res } from '../helpers/api.ts';


const fx = withServer({ accounts: { acct: { scopes: ['sites:read'] } } });

const onlyError = (r: Res) => {
  expect(r.headers.get('content-type')).toStartWith('application/json');
  expect(Object.keys(r.body)).toEqual(['error']);
  expect(typeof r.body.error).toBe('string');
  expect(r.text).not.toMatch(/at .*\.ts:\d+|stack|SELECT|duckdb|Catalog Error/i);
};

test('GET /health → 200 {success, data: {status: ok}} without credentials', async () => {
  const r = await fx.acct.api.get('/health');
  expect(r).toMatchObject({ status: 200, body: { success: true, data: { status: 'ok' } } });
});

describe('unknown routes → 404 {"error":"Not found"}', () => {
  test.each([
    ['GET', '/nope'],
    ['GET', '/api/v1/nope'],
    ['POST', '/api/v1/organizations/x/nope'],
    ['DELETE', '/api/v1/auth/me'],
    ['PUT', '/api/v1/organizations'],
  ])('%s %s', async (method, path) => {
    const r = await fx.acct.api.call(method, path, { token: fx.acct.token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Not found' });
  });
});

describe('bodies', () => {
  const sitesPath = () => `/api/v1/organizations/${fx.acct.orgId}/sites`;
  const post = (raw: BodyInit, type = 'application/json') =>
    fx.acct.api.call('POST', sitesPath(), { token: fx.acct.token, raw, headers: { 'content-type': type } });

  test.each([
    ['malformed JSON', ['{', '{"domain": }', 'null x', '\u0000']],
    ['a JSON value that is not an object', ['[]', '"a string"', '17', 'null']],
  ])('%s → 400', async (_, raws) => {
    for (const raw of raws) {
      const r = await post(raw);
      expect(r.status).toBe(400);
      onlyError(r);
    }
  });

  test('a body that fails validation → 400 naming the field (not 422)', async () => {
    const r = await post(JSON.stringify({ domain: 42 }));
    expect(r.status).toBe(400);
    onlyError(r);
    expect(r.body.error).toContain("'domain'");
    const nested = await fx.acct.api.post(`/api/v1/organizations/${fx.acct.orgId}/api-keys`, { name: 'k', scopes: ['sites:read', 'bogus'] }, fx.acct.token);
    expect(nested.status).toBe(400);
    expect(nested.body.error).toContain("'scopes.1'");
  });

  test('a 10 MiB body on a JSON route → 413 or 400 with the error shape, never 5xx', async () => {
    const big = JSON.stringify({ domain: 'a'.repeat(10 * 1024 * 1024) });
    const r = await post(big);
    expect([400, 413]).toContain(r.status);
    onlyError(r);
    const junk = await post('x'.repeat(10 * 1024 * 1024));
    expect([400, 413]).toContain(junk.status);
    onlyError(junk);
  }, 30_000);

  test('a body declared over 16 MiB → 413 {"error":"Request body too large"}', async () => {
    const r = await post(new Uint8Array(17 * 1024 * 1024).fill(0x20));
    expect(r).toMatchObject({ status: 413, body: { error: 'Request body too large' } });
  }, 30_000);

  test('other content types on a JSON route → 400, not 415 or 5xx', async () => {
    for (const [raw, type] of [['<x/>', 'application/xml'], ['plain', 'text/plain'], ['\x00\x01', 'application/octet-stream']]) {
      const r = await post(raw, type);
      expect(r.status, type).toBe(400);
      onlyError(r);
    }
  });
});

describe('path and query oddities never reach the database as errors', () => {
  test.each([
    `/api/v1/organizations/'%20OR%201=1--/sites`,
    `/api/v1/organizations/%00/sites`,
    `/api/v1/organizations/${'9'.repeat(5000)}/sites`,
  ])('%s', async (path) => {
    const r = await fx.acct.api.get(path, fx.acct.token);
    expect(r.status).toBe(404);
    onlyError(r);
  });

  test('a site id with SQL in it is just an unknown site', async () => {
    const count = async () => (await fx.acct.api.get(`/api/v1/organizations/${fx.acct.orgId}/sites`, fx.acct.key)).body.data.sites.length;
    const before = await count();
    const r = await fx.acct.api.get(`/api/v1/organizations/${fx.acct.orgId}/sites/x'%3B%20DROP%20TABLE%20sites%3B--`, fx.acct.key);
    expect(r).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    expect(await count()).toBe(before);
  });
});

test('no request above produced a stack trace or an unhandled-error log line', async () => {
  await Bun.sleep(100);
  expect(fx.srv.logs()).not.toContain('unhandled error');
  expect(fx.srv.logs()).not.toMatch(/"level":"error"/);
});
