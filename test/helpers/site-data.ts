// A deterministic multi-visitor, multi-month fixture imported through the real import endpoint, for tests of
// export, retention and erasure. Months count back from `endMs` (default now), so retention cutoffs apply.
import { expect } from 'bun:test';
import type { client } from './api.ts';

type Api = ReturnType<typeof client>;

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
];
/** Cells a spreadsheet would run as formulas, and RFC 4180's troublemakers. */
const TITLES = ['=HYPERLINK("http://evil","x")', '+1+1', '-2', '@SUM(A1)', 'plain, with comma', 'quote "inside"', 'two\nlines', 'Ünïcødé ✓', null];
const PATHS = ['/', '/pricing', '/blog/a', '/docs/x', '/signup'];

export type FixtureOptions = { visitors: number; months: number; eventsPerVisit?: number; endMs?: number; seed?: number };

/** Import lines: each visitor has one visit a month (staggered days), its events a minute apart. */
export function fixtureLines(o: FixtureOptions): Record<string, unknown>[] {
  const end = o.endMs ?? Date.now();
  const per = o.eventsPerVisit ?? 3;
  let r = o.seed ?? 1;
  const rand = (n: number) => { r = (r * 1103515245 + 12345) % 2147483648; return r % n; };
  const lines: Record<string, unknown>[] = [];
  for (let m = 0; m < o.months; m++) {
    for (let v = 0; v < o.visitors; v++) {
      // Days back within month m (30-day months back from end), at least a day before end.
      const start = end - (m * 30 + 1 + ((v * 7) % 27)) * 86_400_000 - (v % 13) * 3_600_000;
      for (let i = 0; i < per; i++) {
        const kind = rand(10);
        lines.push({
          timestamp: new Date(start + i * 60_000).toISOString(),
          url: `https://example.com${PATHS[rand(PATHS.length)]}?utm_source=${v % 3 ? 'news' : 'ads'}`,
          event_type: kind === 0 ? 'custom' : kind === 1 ? 'purchase' : 'pageview',
          event_name: kind === 0 ? 'Signup' : undefined,
          revenue: kind === 1 ? 10 + rand(90) + 0.25 : undefined,
          currency: kind === 1 ? 'USD' : undefined,
          order_id: kind === 1 ? `o-${m}-${v}-${i}` : undefined,
          title: TITLES[rand(TITLES.length)] ?? undefined,
          referrer: v % 4 === 0 ? 'https://www.google.com/' : undefined,
          properties: kind === 0 ? { plan: v % 2 ? 'pro' : '=cmd', n: String(i) } : undefined,
          visitor_uid: `u${v}`,
          ip: `203.0.113.${v % 250}`,
          user_agent: UAS[v % UAS.length],
        });
      }
    }
  }
  return lines;
}

/** Imports the lines in chunks; every line must be accepted. */
export async function importFixture(api: Api, token: string, orgId: string, siteId: string, lines: Record<string, unknown>[]) {
  for (let i = 0; i < lines.length; i += 20_000) {
    const res = await api.call('POST', `/api/v1/organizations/${orgId}/sites/${siteId}/events/import`, {
      token, raw: lines.slice(i, i + 20_000).map((l) => JSON.stringify(l)).join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.rejected).toBe(0);
  }
}

/** Resolves once the server's output has logged `needle` (e.g. a pause point), or fails after `ms`. */
export async function waitForLog(logs: () => string, needle: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (!logs().includes(needle)) {
    if (Date.now() > until) throw new Error(`no "${needle}" in the server log:\n${logs().slice(-3000)}`);
    await Bun.sleep(50);
  }
}
