// Sites (contract §3, §8): create, list and get (session or sites:read key), patch, delete; validation.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';

const sites = () => `/api/v1/organizations/${fx.acct.orgId}/sites`;

const fx = withServer({ accounts: { acct: { scopes: ['sites:read'] } } });

describe('create', () => {
  test('201 with defaults: name = domain, UTC, USD, pk_live_ public id', async () => {
    const r = await fx.acct.api.post(sites(), { domain: 'Shop.Example.org' }, fx.acct.token);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body.data).sort()).toEqual(['created_at', 'currency', 'domain', 'id', 'name', 'public_id', 'retention_months', 'timezone']);
    expect(r.body.data).toMatchObject({ domain: 'shop.example.org', name: 'shop.example.org', timezone: 'UTC', currency: 'USD' });
    expect(r.body.data.public_id).toMatch(/^pk_live_[0-9a-f]{32}$/);
    expect(r.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.data.created_at).toMatch(/Z$/);
  });

  test('201 with name, IANA time zone and currency (upper-cased)', async () => {
    const r = await fx.acct.api.post(sites(), { domain: 'blog.example.com', name: 'Blog', timezone: 'Europe/Berlin', currency: 'eur' }, fx.acct.token);
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ name: 'Blog', timezone: 'Europe/Berlin', currency: 'EUR' });
  });

  test.each([
    ['a missing domain', {}, 'domain'],
    ['a URL instead of a host name', { domain: 'https://example.com/' }, 'domain'],
    ['an unknown time zone', { domain: 'a.example.com', timezone: 'Mars/Olympus' }, 'timezone'],
    // Intl takes an offset; DuckDB's timezone() would fail every all-time report of the site (found by fuzzing).
    ['a UTC offset instead of a zone', { domain: 'a.example.com', timezone: '+05:30' }, 'timezone'],
    ['an unknown currency', { domain: 'a.example.com', currency: 'XYZW' }, 'currency'],
    ['an empty name', { domain: 'a.example.com', name: '' }, 'name'],
  ])('400 for %s, naming the field', async (_, body, field) => {
    const r = await fx.acct.api.post(sites(), body, fx.acct.token);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toContain(`'${field}'`);
  });
});

describe('read', () => {
  test('list: the same sites for the session and for a sites:read key, oldest first', async () => {
    const bySession = await fx.acct.api.get(sites(), fx.acct.token);
    const byKey = await fx.acct.api.get(sites(), fx.acct.key);
    expect(bySession.status).toBe(200);
    expect(byKey.body).toEqual(bySession.body);
    expect(bySession.body.data.sites.map((s: any) => s.domain)).toEqual(['example.com', 'shop.example.org', 'blog.example.com']);
    expect(bySession.body.data.sites[0]).not.toHaveProperty('org_id');
  });

  test('get by id or by public id', async () => {
    const byId = await fx.acct.api.get(`${sites()}/${fx.acct.site.id}`, fx.acct.key);
    expect(byId.status).toBe(200);
    expect(byId.body.data).toMatchObject({ id: fx.acct.site.id, public_id: fx.acct.site.public_id });
    const byPublic = await fx.acct.api.get(`${sites()}/${fx.acct.site.public_id}`, fx.acct.key);
    expect(byPublic.body).toEqual(byId.body);
    // UUIDs are case-insensitive.
    const upper = await fx.acct.api.get(`/api/v1/organizations/${fx.acct.orgId.toUpperCase()}/sites/${fx.acct.site.id.toUpperCase()}`, fx.acct.key);
    expect(upper.body).toEqual(byId.body);
  });

  test('an unknown site is 404 Site not found', async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', 'pk_live_00000000000000000000000000000000', 'whatever']) {
      expect(await fx.acct.api.get(`${sites()}/${id}`, fx.acct.key)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    }
  });
});

describe('patch and delete', () => {
  test('patch changes name, time zone and currency, never domain or public id', async () => {
    const created = (await fx.acct.api.post(sites(), { domain: 'patch.example.com' }, fx.acct.token)).body.data;
    const r = await fx.acct.api.patch(`${sites()}/${created.public_id}`, { name: 'Patched', timezone: 'America/New_York', currency: 'gbp' }, fx.acct.token);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ ...created, name: 'Patched', timezone: 'America/New_York', currency: 'GBP' });
    const again = await fx.acct.api.get(`${sites()}/${created.id}`, fx.acct.token);
    expect(again.body.data).toEqual(r.body.data);
    const bad = await fx.acct.api.patch(`${sites()}/${created.id}`, { timezone: 'Nowhere/Town' }, fx.acct.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('timezone');
  });

  test('a patch of one field keeps the others', async () => {
    const created = (await fx.acct.api.post(sites(), { domain: 'partial.example.com', timezone: 'Europe/Berlin', currency: 'eur' }, fx.acct.token)).body.data;
    const r = await fx.acct.api.patch(`${sites()}/${created.id}`, { currency: 'jpy' }, fx.acct.token);
    expect(r.body.data).toEqual({ ...created, currency: 'JPY' });
    const empty = await fx.acct.api.patch(`${sites()}/${created.id}`, {}, fx.acct.token);
    expect(empty.body.data).toEqual(r.body.data);
  });

  test('delete answers {id}; the site is gone for lists, gets and ingestion lookups', async () => {
    const created = (await fx.acct.api.post(sites(), { domain: 'gone.example.com' }, fx.acct.token)).body.data;
    expect(await fx.acct.api.del(`${sites()}/${created.id}`, fx.acct.token)).toMatchObject({ status: 200, body: { success: true, data: { id: created.id } } });
    expect(await fx.acct.api.get(`${sites()}/${created.id}`, fx.acct.token)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    expect(await fx.acct.api.del(`${sites()}/${created.id}`, fx.acct.token)).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    expect((await fx.acct.api.get(sites(), fx.acct.token)).body.data.sites.map((s: any) => s.id)).not.toContain(created.id);
  });

  test('sites survive a restart on the same DATA_DIR', async () => {
    const before = await fx.acct.api.get(sites(), fx.acct.token);
    expect(await fx.srv.stop()).toBe(0);
    const again = await startServer({ dataDir: fx.srv.dataDir });
    try {
      const after = await fx.acct.api.call('GET', sites(), { token: fx.acct.token }).catch(() => undefined);
      expect(after).toBeUndefined(); // the old port is closed
      const r = await fetch(`${again.url}${sites()}`, { headers: { authorization: `Bearer ${fx.acct.key}` } });
      expect(await r.json()).toEqual(before.body);
    } finally {
      await again.stop();
    }
  }, 30_000);
});
