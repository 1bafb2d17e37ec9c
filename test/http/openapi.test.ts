// The OpenAPI 3 document at /api/v1/openapi.json (the /docs page: docs-page.test.ts).
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
let doc: any;

beforeAll(async () => {
  srv = await startServer();
  const r = await fetch(`${srv.url}/api/v1/openapi.json`);
  expect(r.status).toBe(200);
  doc = await r.json();
});
afterAll(async () => { await srv.cleanup(); });

const op = (path: string, method: string) => doc.paths[path]?.[method];
const jsonBody = (path: string, method: string) => op(path, method)?.requestBody?.content?.['application/json']?.schema;

test('an OpenAPI 3 document with title, bearer security and the foundation routes', () => {
  expect(doc.openapi).toMatch(/^3\./);
  expect(doc.info.title).toBe('Tern API');
  expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  for (const [path, method] of [
    ['/health', 'get'],
    ['/api/v1/auth/register', 'post'],
    ['/api/v1/auth/login', 'post'],
    ['/api/v1/auth/logout', 'post'],
    ['/api/v1/auth/me', 'get'],
    ['/api/v1/organizations', 'get'],
    ['/api/v1/organizations', 'post'],
    ['/api/v1/organizations/{orgId}', 'patch'],
    ['/api/v1/organizations/{orgId}/sites', 'get'],
    ['/api/v1/organizations/{orgId}/sites', 'post'],
    ['/api/v1/organizations/{orgId}/sites/{siteId}', 'get'],
    ['/api/v1/organizations/{orgId}/sites/{siteId}', 'patch'],
    ['/api/v1/organizations/{orgId}/sites/{siteId}', 'delete'],
    ['/api/v1/organizations/{orgId}/api-keys', 'get'],
    ['/api/v1/organizations/{orgId}/api-keys', 'post'],
    ['/api/v1/organizations/{orgId}/api-keys/{keyId}', 'delete'],
    ['/tracker.js', 'get'],
    ['/api/v1/event', 'post'],
    ['/api/v1/organizations/{orgId}/sites/{siteId}/analytics/pages', 'get'],
    ['/api/v1/organizations/{orgId}/sites/{siteId}/shared-links', 'post'],
    ['/api/v1/organizations/{orgId}/sites/{siteId}/shared-links', 'get'],
    ['/api/v1/organizations/{orgId}/sites/{siteId}/shared-links/{linkId}', 'delete'],
    ['/api/v1/share/{token}', 'get'],
    ['/api/v1/share/{token}/unlock', 'post'],
  ]) expect(op(path, method)).toBeDefined();
  // Public operations say so; everything else inherits the document-wide bearer requirement.
  for (const [path, method] of [['/health', 'get'], ['/api/v1/auth/register', 'post'], ['/api/v1/auth/login', 'post'], ['/api/v1/share/{token}', 'get'], ['/api/v1/share/{token}/unlock', 'post']]) {
    expect(op(path, method).security).toEqual([]);
  }
  expect(doc.security).toEqual([{ bearer: [] }, { session_cookie: [] }]);
  expect(doc.components.securitySchemes.session_cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'tern_session' });
  expect(jsonBody('/api/v1/auth/login', 'post').properties.cookie.type).toBe('boolean');
  expect(jsonBody('/api/v1/organizations/{orgId}/sites/{siteId}/shared-links', 'post').properties.password.minLength).toBe(8);
  expect(doc.paths['/api/v1/openapi.json']).toBeUndefined();
  expect(doc.paths['/docs']).toBeUndefined();
});

test('request bodies are JSON schemas generated from the zod validators', () => {
  const key = jsonBody('/api/v1/organizations/{orgId}/api-keys', 'post');
  expect(key.required).toEqual(expect.arrayContaining(['name', 'scopes']));
  expect(key.properties.scopes.items.enum).toContain('sites:read');
  expect(key.properties.scopes.minItems).toBe(1);
  expect(jsonBody('/api/v1/auth/register', 'post').properties.password.minLength).toBe(8);
  expect(jsonBody('/api/v1/organizations/{orgId}/sites', 'post').required).toEqual(['domain']);
  expect(Object.keys(jsonBody('/api/v1/organizations/{orgId}/sites/{siteId}', 'patch').properties).sort()).toEqual(['currency', 'name', 'timezone']);
  // Every operation that takes a body says what it is.
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, o] of Object.entries<any>(methods)) {
      if (o.requestBody) expect(Object.keys(o.requestBody.content ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
    }
  }
});

test('responses: the success envelope and the error shape', () => {
  const created = op('/api/v1/organizations/{orgId}/api-keys', 'post').responses;
  const data = created['201'].content['application/json'].schema.properties.data;
  expect(data.required).toEqual(expect.arrayContaining(['id', 'name', 'scopes', 'key', 'key_preview', 'created_at', 'expires_at']));
  const list = op('/api/v1/organizations/{orgId}/api-keys', 'get').responses['200'].content['application/json'].schema;
  expect(list.properties.data.properties.api_keys.items.properties.status.enum).toEqual(['active', 'expired']);
  for (const status of ['400', '401', '403', '404', '429']) {
    expect(created[status].content['application/json'].schema.properties).toEqual({ error: { type: 'string' } });
  }
  const params = op('/api/v1/organizations/{orgId}/sites/{siteId}', 'get').parameters.map((p: any) => `${p.in}:${p.name}`);
  expect(params).toEqual(expect.arrayContaining(['path:orgId', 'path:siteId']));
});

