// Retention over real HTTP: a site with 14 months of data and retention_months 12 keeps exactly the last
// 12 months after compaction; stats, export, visitors and the registries agree; kill -9 during the drop
// leaves the store before or after it, consistent either way.
import { afterAll, expect, test } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { client, setupAccount } from '../helpers/api.ts';
import { fixtureLines, importFixture, waitForLog } from '../helpers/site-data.ts';
import { queryStored, storedRelation } from '../helpers/inspect-db.ts';
import { retentionCutoff } from '../../src/storage/retention.ts';

const servers: TestServer[] = [];
afterAll(async () => { for (const s of servers) await s.cleanup(); });

const NOW = Date.now();
const lines: (Record<string, any> & { timestamp: string })[] = [
  ...(fixtureLines({ visitors: 15, months: 14, eventsPerVisit: 3, endMs: NOW }) as any[]),
  // Seen only 13 months ago: nothing of it is left, so its profile goes.
  ...[0, 1].map((i) => ({ timestamp: new Date(NOW - 395 * 86_400_000 + i * 60_000).toISOString(), url: 'https://example.com/old', event_type: 'pageview', visitor_uid: 'old-1', ip: '198.51.100.1', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36' })),
  // One visit across a full hour, whatever the clock says when the test runs: visits are cut by gaps, not by the clock.
  ...[-30_000, 30_000].map((d) => ({ timestamp: new Date(Math.floor((NOW - 2 * 86_400_000) / 3_600_000) * 3_600_000 + d).toISOString(), url: 'https://example.com/hour', event_type: 'pageview', visitor_uid: 'hour-1', ip: '198.51.100.2', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36' })),
];
/**
 * The lines' visits as the server cuts them: a visitor's events in time order, a new visit wherever 30 minutes
 * or more pass. (Keying visits by calendar hour split every visit of a run started in the last two minutes of
 * an hour, whose events then spanned two hours, and doubled the expected visits.)
 */
function visitsOf(ls: typeof lines): (typeof lines)[] {
  const byVisitor = new Map<string, typeof lines>();
  for (const l of ls) byVisitor.set(l.visitor_uid, [...(byVisitor.get(l.visitor_uid) ?? []), l]);
  const out: (typeof lines)[] = [];
  for (const events of byVisitor.values()) {
    events.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
    events.forEach((l, i) => {
      if (i === 0 || Date.parse(l.timestamp) - Date.parse(events[i - 1]!.timestamp) >= 30 * 60_000) out.push([]);
      out[out.length - 1]!.push(l);
    });
  }
  return out;
}

/** What retention must keep: the events of visits starting at or after the cutoff. */
function expected(now: number) {
  const cutoff = retentionCutoff(now, 12).toISOString();
  const visits = visitsOf(lines).filter((v) => v[0]!.timestamp >= cutoff);
  const kept = visits.flat();
  return { cutoff, events: kept.length, visits: visits.length, visitors: new Set(kept.map((l) => l.visitor_uid)).size };
}

function filesOnDisk(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else out.push(p); } };
  walk(join(dir, 'parquet'));
  return out.map((p) => relative(dir, p)).sort();
}

async function setup(env: Record<string, string> = {}) {
  const srv = await startServer({ env });
  servers.push(srv);
  const acct = await setupAccount(srv.url, { scopes: ['analytics:read', 'visitors:read'] });
  await importFixture(acct.api, acct.token, acct.orgId, acct.site.id, lines);
  const base = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
  return { srv, acct, base };
}

/** An import runs compaction when it is done: one event from now makes it run. */
const trigger = (acct: Awaited<ReturnType<typeof setupAccount>>, api = acct.api) => api.call('POST', `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import`, {
  token: acct.token, raw: JSON.stringify({ timestamp: new Date(NOW - 3_600_000).toISOString(), url: 'https://example.com/now', event_type: 'pageview', visitor_uid: 'trigger', ip: '198.51.100.9', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36' }) + '\n',
  headers: { 'content-type': 'application/x-ndjson' },
});

test('retention_months is validated and patched through the site', async () => {
  const { acct } = await setup();
  const path = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}`;
  for (const bad of [0, 121, 1.5, 'x', -1]) {
    const r = await acct.api.patch(path, { retention_months: bad }, acct.token);
    expect(r.status).toBe(400);
    expect(typeof r.body.error).toBe('string');
  }
  expect((await acct.api.get(path, acct.token)).body.data.retention_months).toBeNull();
  expect((await acct.api.patch(path, { retention_months: 12 }, acct.token)).body.data.retention_months).toBe(12);
  expect((await acct.api.patch(path, { name: 'renamed' }, acct.token)).body.data.retention_months).toBe(12);
  expect((await acct.api.patch(path, { retention_months: null }, acct.token)).body.data.retention_months).toBeNull();
  expect((await acct.api.patch(path, { retention_months: 12 }, acct.key)).status).toBe(403);
});

test('14 months of data, retention 12: exactly the last 12 months stay, and every endpoint agrees', async () => {
  const { srv, acct, base } = await setup();
  const all = (await acct.api.get(`${base}/analytics/stats?period=custom&from=2020-01-01&to=2030-01-01`, acct.key)).body.data.metrics;
  expect(all.events).toBe(lines.length);
  const old = (await acct.api.get(`${base}/visitors?search=old-1`, acct.key)).body.data.visitors;
  expect(old).toHaveLength(1);
  const u1Before = (await acct.api.get(`${base}/visitors?search=u1&limit=100`, acct.key)).body.data.visitors.find((v: any) => v.uid === 'u1');

  expect((await acct.api.patch(base, { retention_months: 12 }, acct.token)).status).toBe(200);
  expect((await trigger(acct)).status).toBe(200);
  const want = expected(NOW);

  // A range from before the cutoff (counted exactly) and one from the first stored day.
  for (const q of ['period=custom&from=2020-01-01&to=2030-01-01', 'period=all']) {
    const m = (await acct.api.get(`${base}/analytics/stats?${q}`, acct.key)).body.data.metrics;
    expect({ q, events: m.events, visits: m.visits, visitors: m.visitors }).toEqual({ q, events: want.events + 1, visits: want.visits + 1, visitors: want.visitors + 1 });
  }
  // 12mo starts after the cutoff: counted from the first-occurrence marks, which must agree with the rows.
  const d = new Date(NOW);
  const from12 = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)).toISOString();
  const in12 = lines.filter((l) => l.timestamp >= from12);
  const m12 = (await acct.api.get(`${base}/analytics/stats?period=12mo`, acct.key)).body.data.metrics;
  expect({ events: m12.events, visitors: m12.visitors }).toEqual({ events: in12.length + 1, visitors: new Set(in12.map((l) => l.visitor_uid)).size + 1 });
  const exported = (await (await fetch(`${srv.url}${base}/export?table=events&format=ndjson`, { headers: { authorization: `Bearer ${acct.key}` } })).text()).trim().split('\n').map((l) => JSON.parse(l));
  expect(exported).toHaveLength(want.events + 1);
  expect(exported.every((e) => e.timestamp >= want.cutoff)).toBe(true);
  expect((await acct.api.get(`${base}/visitors?search=old-1`, acct.key)).body.data.visitors).toEqual([]);
  // Profiles that stay keep their lifetime totals.
  const u1 = (await acct.api.get(`${base}/visitors?search=u1&limit=100`, acct.key)).body.data.visitors.find((v: any) => v.uid === 'u1');
  expect(u1.total_pageviews).toBe(u1Before.total_pageviews);

  await srv.stop();
  const events = await storedRelation(srv.dataDir, 'events');
  const [row] = await queryStored(srv.dataDir, `SELECT count(*) AS n, min(ts) < ?::TIMESTAMP AS older FROM ${events}`, [want.cutoff]);
  expect(row).toEqual({ n: want.events + 1, older: false });
  const files = await queryStored<{ month: string; min_ts: string }>(srv.dataDir, `SELECT month, min_ts FROM parquet_files`);
  expect(files.every((f) => f.month >= want.cutoff.slice(0, 7))).toBe(true);
  const months = new Set(files.map((f) => f.month));
  expect(months.size).toBeLessThanOrEqual(13); // 12 months back from a mid-month day touch 13 calendar months
  const [counts] = await queryStored(srv.dataDir, `SELECT sum(events) AS ev, min(slot) < ?::TIMESTAMP AS older FROM event_counts`, [want.cutoff]);
  expect(counts).toEqual({ ev: want.events + 1, older: false });
  expect(await queryStored(srv.dataDir, `SELECT count(*) AS n FROM purchases WHERE ts < ?::TIMESTAMP`, [want.cutoff])).toEqual([{ n: 0 }]);
  expect(await queryStored(srv.dataDir, `SELECT count(*) AS n FROM visits WHERE start_ts < ?::TIMESTAMP`, [want.cutoff])).toEqual([{ n: 0 }]);
}, 60_000);

for (const [step, applied] of [['retention:after-write', false], ['retention:after-commit', true]] as const) {
  test(`kill -9 at ${step}: the store is consistent, ${applied ? 'the drop holds' : 'nothing was dropped'}`, async () => {
    let { srv, acct, base } = await setup({ TERN_TEST_PAUSE_AT: step });
    expect((await acct.api.patch(base, { retention_months: 12 }, acct.token)).status).toBe(200);
    void trigger(acct).catch(() => {});
    await waitForLog(srv.logs, `"step":"${step}"`);
    await srv.kill();

    srv = await startServer({ dataDir: srv.dataDir });
    servers.push(srv);
    const api = client(srv.url);
    const m = (await api.get(`${base}/analytics/stats?period=custom&from=2020-01-01&to=2030-01-01`, acct.key)).body.data.metrics;
    const want = expected(NOW);
    // The trigger's own import committed before compaction ran.
    expect(m.events).toBe(applied ? want.events + 1 : lines.length + 1);
    await srv.stop();
    const registered = (await queryStored<{ path: string }>(srv.dataDir, 'SELECT path FROM parquet_files')).map((r) => r.path).sort();
    expect(filesOnDisk(srv.dataDir)).toEqual(registered);
    const events = await storedRelation(srv.dataDir, 'events');
    const [row] = await queryStored(srv.dataDir, `SELECT count(*) AS n, count(DISTINCT (visitor_id, ts)) AS d FROM ${events}`);
    expect(row!.n).toBe(row!.d);
    const [counts] = await queryStored(srv.dataDir, 'SELECT sum(events) AS ev FROM event_counts');
    expect(counts!.ev).toBe(row!.n);

    // The next compaction finishes the job.
    srv = await startServer({ dataDir: srv.dataDir });
    servers.push(srv);
    expect((await trigger(acct, client(srv.url))).status).toBe(200);
    const after = (await client(srv.url).get(`${base}/analytics/stats?period=custom&from=2020-01-01&to=2030-01-01`, acct.key)).body.data.metrics;
    expect(after.events).toBe(want.events + 2);
  }, 90_000);
}
