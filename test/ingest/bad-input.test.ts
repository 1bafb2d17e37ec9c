// Every bad input of contract §6 gets its 4xx (never a 5xx), with CORS headers, and nothing of it is stored.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { BROWSER_UA, queryStored, storedRelation } from '../helpers/inspect-db.ts';
import { importLines } from '../helpers/import.ts';

let pk: string;
const fx = withServer({ accounts: { acct: {} } });
beforeAll(async () => {
  pk = fx.acct.site.public_id;
});

const post = async (path: string, body: BodyInit, contentType = 'application/json') => {
  const r = await fetch(fx.srv.url + path, { method: 'POST', headers: { 'content-type': contentType, 'user-agent': BROWSER_UA }, body });
  const text = await r.text();
  return { status: r.status, text, cors: r.headers.get('access-control-allow-origin') };
};
const event = (body: unknown) => post('/api/v1/event', typeof body === 'string' ? body : JSON.stringify(body));

describe('POST /api/v1/event rejects', () => {
  const cases: [string, () => unknown, number, RegExp][] = [
    ['malformed JSON', () => '{"site_id": ', 400, /expected valid JSON/],
    ['a JSON array', () => '[1,2]', 400, /expected a JSON object/],
    ['a JSON string', () => '"hello"', 400, /expected a JSON object/],
    ['null', () => 'null', 400, /expected a JSON object/],
    ['an empty body', () => '', 400, /expected valid JSON/],
    ['missing site_id', () => ({ url: 'https://example.com/' }), 400, /Missing required field 'site_id'/],
    ['missing url', () => ({ site_id: pk }), 400, /Missing required field 'url'/],
    ['url of wrong type', () => ({ site_id: pk, url: 42 }), 400, /'url'/],
    ['site_id of wrong type', () => ({ site_id: ['x'], url: 'https://example.com/' }), 400, /'site_id'/],
    ['a non-http url', () => ({ site_id: pk, url: 'javascript:alert(1)' }), 400, /'url': must be an absolute http\(s\) URL/],
    ['a relative url', () => ({ site_id: pk, url: '/about' }), 400, /'url'/],
    ['an unknown event_type', () => ({ site_id: pk, url: 'https://example.com/', event_type: 'hack' }), 400, /'event_type'/],
    ['scroll_depth over 100', () => ({ site_id: pk, url: 'https://example.com/', scroll_depth: 100.5 }), 400, /'scroll_depth'/],
    ['scroll_depth below 0', () => ({ site_id: pk, url: 'https://example.com/', scroll_depth: -1 }), 400, /'scroll_depth'/],
    ['a numeric string for a number', () => ({ site_id: pk, url: 'https://example.com/', screen_w: '1200' }), 400, /'screen_w'/],
    ['revenue as an object', () => ({ site_id: pk, url: 'https://example.com/', revenue: { amount: 1 } }), 400, /'revenue'/],
    ['properties as an array', () => ({ site_id: pk, url: 'https://example.com/', properties: [1, 2] }), 400, /'properties'/],
    ['properties as a string', () => ({ site_id: pk, url: 'https://example.com/', properties: 'a=1' }), 400, /'properties'/],
    ['a bad currency', () => ({ site_id: pk, url: 'https://example.com/', currency: 'dollars' }), 400, /'currency'/],
    ['an unknown site', () => ({ site_id: 'pk_live_00000000000000000000000000000000', url: 'https://example.com/' }), 404, /^\{"error":"Unknown site"\}$/],
    ['an empty site_id', () => ({ site_id: '', url: 'https://example.com/' }), 400, /'site_id': must not be empty/],
  ];
  for (const [name, body, status, message] of cases) {
    test(name, async () => {
      const r = await event(body());
      expect(r.status).toBe(status);
      expect(r.text).toMatch(message);
      expect(JSON.parse(r.text)).toEqual({ error: expect.any(String) });
      expect(r.cors).toBe('*');
    });
  }

  test('a body over 64 KiB is 413, by Content-Length and when streamed without one', async () => {
    const big = JSON.stringify({ site_id: pk, url: 'https://example.com/', title: 'x'.repeat(70_000) });
    const r = await event(big);
    expect(r.status).toBe(413);
    expect(r.cors).toBe('*');
    const chunks = [new TextEncoder().encode(big.slice(0, 40_000)), new TextEncoder().encode(big.slice(40_000))];
    const stream = new ReadableStream({ pull(c) { const x = chunks.shift(); if (x) c.enqueue(x); else c.close(); } });
    const s = await fetch(fx.srv.url + '/api/v1/event', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(s.status).toBe(413);
    await s.text();
  });

  test('…while a streamed body under 64 KiB, in several pieces, is read whole', async () => {
    const body = new TextEncoder().encode(JSON.stringify({ site_id: pk, url: 'https://example.com/streamed', title: 'x'.repeat(40_000) }));
    const chunks = [body.subarray(0, 15_000), body.subarray(15_000, 30_000), body.subarray(30_000)];
    const stream = new ReadableStream({ pull(c) { const x = chunks.shift(); if (x) c.enqueue(x); else c.close(); } });
    // A bot's user agent: validated (a cut body would be 400) but not stored, so the stored-rows checks below are unaffected.
    const s = await fetch(fx.srv.url + '/api/v1/event', { method: 'POST', headers: { 'user-agent': 'curl/8.5.0' }, body: stream, duplex: 'half' } as RequestInit);
    expect(s.status).toBe(202);
    expect(await s.text()).toBe('ok');
  });

  test('a 10 MiB body is 413', async () => {
    const r = await post('/api/v1/event', new Uint8Array(10 * 1024 * 1024).fill(0x41));
    expect(r.status).toBe(413);
  });

  test('random bytes are 400 and never 5xx', async () => {
    for (let i = 0; i < 30; i++) {
      const bytes = crypto.getRandomValues(new Uint8Array(1 + Math.floor(Math.random() * 2000)));
      const r = await post('/api/v1/event', bytes, 'application/octet-stream');
      expect(r.status).toBe(400);
    }
  });

  test('deeply nested junk is 400', async () => {
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    expect((await event(deep)).status).toBe(413);
    const nested = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    expect((await event(nested)).status).toBe(400);
    expect((await event({ site_id: { $ne: null }, url: 'https://example.com/' })).status).toBe(400);
  });
});

describe('POST /api/v1/identify rejects', () => {
  test('missing visitor_uid or user_id, malformed JSON, unknown site', async () => {
    const id = (b: unknown) => post('/api/v1/identify', typeof b === 'string' ? b : JSON.stringify(b));
    expect(await id({ site_id: pk, user_id: 'u' })).toMatchObject({ status: 400, text: expect.stringContaining("'visitor_uid'"), cors: '*' });
    expect(await id({ site_id: pk, visitor_uid: 'v' })).toMatchObject({ status: 400, text: expect.stringContaining("'user_id'") });
    expect(await id({ site_id: pk, visitor_uid: 'v', user_id: 'u', custom: 'x' })).toMatchObject({ status: 400 });
    expect(await id('{oops')).toMatchObject({ status: 400 });
    expect(await id({ site_id: 'pk_live_nope', visitor_uid: 'v', user_id: 'u' })).toMatchObject({ status: 404, text: '{"error":"Unknown site"}' });
    expect((await post('/api/v1/identify', 'x'.repeat(70_000))).status).toBe(413);
  });
});

describe('odd but acceptable input is stored cleaned', () => {
  test('lone surrogates, NULs, over-long fields and nested properties', async () => {
    const body = '{"site_id":"' + pk + '","url":"https://example.com/\\ud800x","title":"a\\udc00b\\u0000c","event_name":"' +
      'e'.repeat(300) + '","properties":{"ok":"v\\ud83d","n":5,"b":true,"nested":{"x":1},"arr":[1],"nul":null,"__proto__":"p"}}';
    const r = await event(body);
    expect(r.status).toBe(202);
    expect(r.text).toBe('ok');
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    expect((await event({ site_id: pk, url: 'https://example.com/many', properties: many, referrer: 'https://r.example/' + 'r'.repeat(3000) })).status).toBe(202);
    await fx.srv.stop();
    const rows = await queryStored(fx.srv.dataDir, `SELECT url, title, event_type, event_name, props, referrer FROM ${await storedRelation(fx.srv.dataDir, 'events')} ORDER BY ts`);
    fx.srv = await startServer({ dataDir: fx.srv.dataDir });
    expect(rows).toHaveLength(2);
    const [a, b] = rows as any[];
    expect(a.url).toBe('https://example.com/\ufffdx');
    expect(a.title).toBe('a\ufffdbc');
    expect(a.event_type).toBe('custom');
    expect(a.event_name).toHaveLength(200);
    expect(Object.fromEntries(a.props.map((e: any) => [e.key, e.value]))).toEqual({ ok: 'v\ufffd', n: '5', b: 'true', ['__proto__']: 'p' });
    expect(b.props).toHaveLength(30);
    expect(b.referrer.length).toBeLessThanOrEqual(2000);
  });
});

describe('import rejects bad lines, never the whole body', () => {
  test('each bad line is listed with its number; good lines are imported', async () => {
    const good = { url: 'https://example.com/', timestamp: '2026-03-01T10:00:00Z', visitor_uid: 'imp' };
    const r = await importLines(fx.srv.url, fx.acct, [
      good,
      'not json',
      { url: 'https://example.com/' },
      { ...good, timestamp: 'yesterday' },
      { ...good, scroll_depth: 500 },
      { ...good, url: 'ftp://x' },
      '',
      '[]',
      { ...good, event_type: 'nope' },
      'x'.repeat(70_000),
      good,
      { ...good, timestamp: '2999-01-01T00:00:00Z' },
      // Stored, a year before 1000 made every all-time report of the site answer 500 (found by fuzzing).
      { ...good, timestamp: '0999-12-31T23:59:59Z' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data.imported).toBe(2);
    expect(r.body.data.rejected).toBe(10);
    expect(r.body.data.errors.map((e: any) => e.line)).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 12, 13]);
    expect(r.body.data.errors[8].error).toBe("Invalid field 'timestamp': must not be more than a day in the future");
    expect(r.body.data.errors[9].error).toBe("Invalid field 'timestamp': must not be before 1970-01-01");
    expect(r.body.data.errors[1].error).toBe("Missing required field 'timestamp'");
  });

  test('at most 100 errors are listed', async () => {
    const r = await importLines(fx.srv.url, fx.acct, Array.from({ length: 150 }, () => '{bad'));
    expect(r.body.data).toMatchObject({ imported: 0, rejected: 150 });
    expect(r.body.data.errors).toHaveLength(100);
  });

  test('needs a session token', async () => {
    const r = await fetch(`${fx.srv.url}/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}/events/import`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(401);
    const other = await setupAccount(fx.srv.url);
    const x = await importLines(fx.srv.url, { ...other, site: fx.acct.site, orgId: fx.acct.orgId }, ['{}']);
    expect(x.status).toBe(404);
  });
});

test('CORS preflights of both endpoints are answered for any origin', async () => {
  for (const path of ['/api/v1/event', '/api/v1/identify']) {
    const r = await fetch(fx.srv.url + path, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-methods')).toContain('POST');
    expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(await r.text()).toBe('');
  }
});
