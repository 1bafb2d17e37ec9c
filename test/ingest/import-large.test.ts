// Bulk import at size: a body far over the 16 MiB cap of other routes streams in (chunked, no
// Content-Length), and a slow import answers with whitespace-led JSON instead of hitting idle timeouts.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { setupAccount } from '../helpers/api.ts';
import { generateEvents } from '../../bench/generate.ts';
import { answerPatiently } from '../../src/http/patient-response.ts';
import { queryStored, storedRelation } from '../helpers/inspect-db.ts';

const fx = withServer();

test('a 20 MiB NDJSON body, streamed without Content-Length, is imported in full', async () => {
  const acct = await setupAccount(fx.srv.url);
  const enc = new TextEncoder();
  const events = generateEvents({ events: 60_000, seed: 5, days: 60, end: new Date('2026-06-01T00:00:00Z') });
  let bytes = 0;
  let lines = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      const chunk: string[] = [];
      for (let i = 0; i < 2000; i++) {
        const e = events.next();
        if (e.done) break;
        chunk.push(JSON.stringify(e.value));
      }
      if (!chunk.length) return c.close();
      const b = enc.encode(chunk.join('\n') + '\n');
      bytes += b.byteLength;
      lines += chunk.length;
      c.enqueue(b);
    },
  });
  const r = await fetch(`${fx.srv.url}/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import`, {
    method: 'POST', headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/x-ndjson' }, body, duplex: 'half',
  } as RequestInit);
  expect(r.status).toBe(200);
  const result = JSON.parse(await r.text());
  expect(bytes).toBeGreaterThan(20 * 1024 * 1024);
  expect(result.data).toEqual({ imported: lines, rejected: 0, errors: [] });
  expect(await fx.srv.stop()).toBe(0);
  const [{ n }] = await queryStored<{ n: number }>(fx.srv.dataDir, `SELECT count(*)::INTEGER AS n FROM ${await storedRelation(fx.srv.dataDir, 'events')}`);
  expect(n).toBe(lines);
}, 120_000);

test('a slow result is streamed: whitespace first, then the JSON; a fast one is returned as is', async () => {
  const slow = answerPatiently(Bun.sleep(300).then(() => ({ success: true, data: { imported: 1 } })), Promise.resolve(), 50);
  const res = (await slow) as Response;
  expect(res).toBeInstanceOf(Response);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text).toMatch(/^ +\{/);
  expect(JSON.parse(text)).toEqual({ success: true, data: { imported: 1 } });

  const fast = await answerPatiently(Promise.resolve({ ok: 1 }), Promise.resolve(), 1000);
  expect(fast).toEqual({ ok: 1 });
  const failing = answerPatiently(Promise.reject(new Error('boom')), Promise.resolve(), 1000);
  await expect(failing).rejects.toThrow('boom');
  const late = (await answerPatiently(Bun.sleep(200).then(() => { throw new Error('late'); }), Promise.resolve(), 20)) as Response;
  expect(JSON.parse(await late.text())).toEqual({ error: 'Internal server error' });
});
