// Visitor erasure's reach beyond the stored files: log segments set aside as failed (never loaded, so the
// loader's tombstone does not reach them) lose the visitor's lines, and an import whose body is still being
// read while the visitor is erased does not bring them back; an import begun after the erasure is new data.
import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { withServer } from '../helpers/fixture.ts';
import { fixtureLines, importFixture } from '../helpers/site-data.ts';
import { uidVisitorId } from '../../src/ingest/hash.ts';
import { toLine } from '../../src/ingest/log-format.ts';

const fx = withServer({ accounts: { acct: {} } });
const base = () => `/api/v1/organizations/${fx.acct.orgId}/sites/${fx.acct.site.id}`;

/** The profile id of a uid's visitor (md5 of site and internal id, as the loader names profiles). */
const profileId = (uid: string) => {
  const h = new Bun.CryptoHasher('md5').update(`${fx.acct.site.id}:${uidVisitorId(fx.acct.site.id, uid)}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
/** A uid's stored events, as the export lists them. */
async function storedOf(uid: string) {
  const r = await fetch(`${fx.srv.url}${base()}/export?table=events&format=ndjson`, { headers: { authorization: `Bearer ${fx.acct.token}` } });
  expect(r.status).toBe(200);
  const id = profileId(uid);
  return (await r.text()).split('\n').filter((l) => l && JSON.parse(l).visitor_id === id).length;
}
const profiles = async () => ((await fx.acct.api.get(`${base()}/visitors?limit=100`, fx.acct.token)).body.data.visitors as any[]).map((v) => v.uid);

test('set-aside log segments lose the erased visitor\'s lines, parsable or not; other lines stay', async () => {
  const site = fx.acct.site.id;
  const row = (uid: string, path: string) => toLine({ ts: Date.parse('2026-01-02T03:04:05Z'), site_id: site, visitor_id: uidVisitorId(site, uid), event_type: 'pageview', url: `https://example.com${path}`, path, uid } as any);
  const dir = join(fx.srv.dataDir, 'log', 'failed');
  mkdirSync(dir, { recursive: true });
  const torn = row('gone', '/torn').slice(0, -12); // a line cut short: not JSON, still the visitor's
  const kept = [row('stays', '/a'), row('stays', '/b')];
  const seg = join(dir, '00000000000000000042.log');
  writeFileSync(seg, [row('gone', '/x'), kept[0], torn, row('gone', '/y'), kept[1]].join('\n') + '\n' + '\0'.repeat(64));
  const other = join(dir, '00000000000000000043.log');
  writeFileSync(other, kept.join('\n') + '\n');

  const res = await fx.acct.api.del(`${base()}/visitors?uid=gone`, fx.acct.token);
  expect(res.status).toBe(200);
  const left = readFileSync(seg, 'utf8').split('\n').filter(Boolean);
  expect(left).toEqual(kept);
  expect(readFileSync(seg, 'utf8')).not.toContain(String(uidVisitorId(site, 'gone')));
  expect(readFileSync(other, 'utf8')).toBe(kept.join('\n') + '\n');
});

/** An import whose body is sent in two parts, `between` run after the first part has reached the server. */
function importInTwoParts(first: string, second: string, between: () => Promise<void>) {
  const u = new URL(`${fx.srv.url}${base()}/events/import`);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(u, { method: 'POST', headers: { authorization: `Bearer ${fx.acct.token}`, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.write(first);
    setTimeout(() => { between().then(() => req.end(second), reject); }, 500);
  });
}

test('an import running while the visitor is erased does not bring them back; one begun after it is new data', async () => {
  const lines = fixtureLines({ visitors: 6, months: 2, eventsPerVisit: 3, seed: 5 });
  await importFixture(fx.acct.api, fx.acct.token, fx.acct.orgId, fx.acct.site.id, lines);
  expect(await storedOf('u2')).toBe(6);
  // More history of u2 (and u3) arrives in an import that is still being read when u2 is erased.
  const more = fixtureLines({ visitors: 6, months: 2, eventsPerVisit: 3, seed: 9, endMs: Date.now() - 90 * 86_400_000 })
    .filter((l) => l.visitor_uid === 'u2' || l.visitor_uid === 'u3');
  const nd = (ls: object[]) => ls.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const half = Math.floor(more.length / 2);
  let erased: any;
  const imported = await importInTwoParts(nd(more.slice(0, half)), nd(more.slice(half)), async () => {
    erased = await fx.acct.api.del(`${base()}/visitors?uid=u2`, fx.acct.token);
  });
  expect(erased.status).toBe(200);
  expect(erased.body.data.events_deleted).toBe(6);
  expect(imported.status).toBe(200);
  expect(imported.body.data.rejected).toBe(0);
  expect(await storedOf('u2')).toBe(0);
  expect(await storedOf('u3')).toBe(6 + more.filter((l) => l.visitor_uid === 'u3').length);
  expect(await profiles()).not.toContain('u2');
  expect(await profiles()).toContain('u3');

  // After the erasure, importing the visitor's history again is the operator's choice: it is stored.
  const again = more.filter((l) => l.visitor_uid === 'u2');
  await importFixture(fx.acct.api, fx.acct.token, fx.acct.orgId, fx.acct.site.id, again);
  expect(await storedOf('u2')).toBe(again.length);
}, 60_000);
