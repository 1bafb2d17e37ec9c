// The benchmark data generator: determinism, visit structure, data that enrichment maps as
// intended, and lines the real bulk-import endpoint accepts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { generateEvents, type ImportEvent } from '../../bench/generate.ts';
import { COUNTRIES } from '../../bench/generator/countries.ts';
import { USER_AGENTS } from '../../bench/generator/user-agents.ts';
import { enrich, isBotAgent } from '../../src/ingest/enrich/index.ts';
import { geolocate } from '../../src/ingest/enrich/geo.ts';
import { parseUserAgent } from '../../src/ingest/enrich/user-agent.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { importLines } from '../helpers/import.ts';

const END = new Date('2026-06-30T12:00:00Z');
const OPTS = { events: 50_000, visitors: 5_000, seed: 7, end: END, site: 'pk_live_test' };
const events: ImportEvent[] = [...generateEvents(OPTS)];
const share = (n: number) => n / events.length;
const count = <T>(items: T[]) => items.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<T, number>());

describe('generateEvents', () => {
  test('yields exactly the number of events asked for', () => {
    expect(events).toHaveLength(50_000);
    expect([...generateEvents({ ...OPTS, events: 1 })]).toHaveLength(1);
    expect([...generateEvents({ ...OPTS, events: 0 })]).toHaveLength(0);
  });

  test('is deterministic for a seed and differs across seeds', () => {
    expect([...generateEvents(OPTS)]).toEqual(events);
    const other = [...generateEvents({ ...OPTS, seed: 8 })];
    expect(other.slice(0, 100)).not.toEqual(events.slice(0, 100));
  });

  test('spreads timestamps over the year before `end`, never after it', () => {
    const ts = events.map((e) => Date.parse(e.timestamp));
    expect(Math.max(...ts)).toBeLessThanOrEqual(END.getTime());
    expect(Math.min(...ts)).toBeGreaterThanOrEqual(END.getTime() - 365 * 86_400_000);
    const months = new Set(events.map((e) => e.timestamp.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(12);
  });

  test('each visitor: events in time order, visits (session_id) separated by 30 minutes, none inside', () => {
    const byVisitor = new Map<string, ImportEvent[]>();
    for (const e of events) byVisitor.set(e.visitor_uid, [...(byVisitor.get(e.visitor_uid) ?? []), e]);
    let returning = 0;
    for (const list of byVisitor.values()) {
      if (new Set(list.map((e) => e.session_id)).size > 1) returning++;
      for (let i = 1; i < list.length; i++) {
        const gap = Date.parse(list[i]!.timestamp) - Date.parse(list[i - 1]!.timestamp);
        expect(gap).toBeGreaterThan(0);
        if (list[i]!.session_id === list[i - 1]!.session_id) expect(gap).toBeLessThan(30 * 60_000);
        else expect(gap).toBeGreaterThanOrEqual(30 * 60_000);
      }
    }
    expect(byVisitor.size).toBeGreaterThan(3_000);
    expect(byVisitor.size).toBeLessThan(8_000);
    expect(returning / byVisitor.size).toBeGreaterThan(0.3);
  });

  test('visits hold 1–20 events, about half of them a single pageview', () => {
    const sizes = [...count(events.map((e) => e.session_id)).values()];
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20);
    const bounces = sizes.filter((n) => n === 1).length / sizes.length;
    expect(bounces).toBeGreaterThan(0.35);
    expect(bounces).toBeLessThan(0.55);
  });

  test('mostly pageviews with scroll depth; every event type occurs; purchases carry revenue and some repeat an order id', () => {
    const types = count(events.map((e) => e.event_type));
    expect(share(types.get('pageview')!)).toBeGreaterThan(0.75);
    for (const t of ['click', 'form_submit', 'download', 'outbound', 'purchase', 'custom']) expect(types.get(t)).toBeGreaterThan(0);
    const views = events.filter((e) => e.event_type === 'pageview');
    expect(views.every((e) => e.scroll_depth! >= 0 && e.scroll_depth! <= 100)).toBe(true);
    expect(views.filter((e) => e.time_on_page !== undefined).length).toBeGreaterThan(views.length * 0.3);
    expect(events.filter((e) => e.event_name === 'Signup').every((e) => typeof e.properties?.plan === 'string')).toBe(true);
    const purchases = events.filter((e) => e.event_type === 'purchase');
    expect(purchases.every((e) => e.revenue! > 0 && ['USD', 'EUR', 'GBP'].includes(e.currency!) && !!e.order_id)).toBe(true);
    expect(new Set(purchases.map((e) => e.order_id)).size).toBeLessThan(purchases.length);
  });

  test('pages follow a long-tailed (Zipf) popularity', () => {
    const pages = [...count(events.filter((e) => e.event_type === 'pageview').map((e) => new URL(e.url).pathname)).values()].sort((a, b) => b - a);
    expect(pages.length).toBeGreaterThan(1_000);
    expect(pages[0]! / pages[99]!).toBeGreaterThan(20);
  });

  test('channels come out in the intended mix once enriched', () => {
    const landings = events.filter((e, i) => i === 0 || events[i - 1]!.session_id !== e.session_id);
    const channels = count(landings.map((e) => enrich({
      url: e.url, referrer: e.referrer, userAgent: e.user_agent, ip: e.ip, screenWidth: e.screen_w, siteDomain: 'example.com',
    }).channel));
    const pct = (c: string) => (channels.get(c) ?? 0) / landings.length;
    expect(pct('Direct')).toBeGreaterThan(0.33);
    expect(pct('Direct')).toBeLessThan(0.47);
    expect(pct('Organic Search')).toBeGreaterThan(0.24);
    for (const c of ['Paid Search', 'Organic Social', 'Email', 'Referral', 'AI Assistants', 'Paid Social', 'Organic Video']) {
      expect(pct(c)).toBeGreaterThan(0.002);
    }
  });
});

describe('generator data tables', () => {
  test.each(COUNTRIES.items.flatMap((c) => c.blocks.map((b) => [c.code, b] as const)))('%s block %s.0/24 geolocates there', (code, block) => {
    for (const last of [1, 77, 128, 254]) expect(geolocate(`${block}.${last}`).country).toBe(code);
  });

  test.each(USER_AGENTS.items.map((a) => [a.device, a.ua] as const))('%s: %s is a browser of that device class', (device, ua) => {
    expect(isBotAgent(ua)).toBe(false);
    expect(parseUserAgent(ua).device).toBe(device);
  });
});

describe('generated lines through the real bulk import', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.cleanup();
  });

  test('every line is accepted', async () => {
    const acct = await setupAccount(server.url);
    const res = await importLines(server.url, acct, events.slice(0, 3_000), { newlineAtEnd: true });
    expect(res.status).toBe(200);
    expect(res.body.data ?? res.body).toMatchObject({ imported: 3_000, rejected: 0, errors: [] });

    const site = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
    const channels = await acct.api.get(`${site}/analytics/channels?period=all&limit=50`, acct.token);
    expect(channels.status).toBe(200);
    const names = channels.body.data.results.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Direct', 'Organic Search', 'Organic Social', 'Referral']));
    const countries = await acct.api.get(`${site}/analytics/locations?period=all&limit=50`, acct.token);
    expect(countries.body.data.results.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['US', 'GB', 'DE']));
  });
});
