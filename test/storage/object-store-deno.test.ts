// Object storage under Deno 2: the same server mirrors its Parquet files to s3rver (aws4fetch on Deno's
// fetch and Web Crypto), byte-identical and listed by the manifest.
import { afterAll, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setupAccount } from '../helpers/api.ts';
import { importAll } from '../helpers/import.ts';
import { fixtureLines } from '../helpers/site-data.ts';
import { startS3, type TestS3 } from '../helpers/s3rver.ts';
import { expectMirrored, waitSettled } from '../helpers/mirror.ts';

let s3: TestS3 | undefined;
let srv: TestServer | undefined;
afterAll(async () => { await srv?.cleanup(); await s3?.cleanup(); });

test('Deno: imported events land in the bucket, byte-identical, listed by the manifest', async () => {
  s3 = await startS3('tern-deno');
  srv = await startServer({ runtime: 'deno', env: s3.env('deno') });
  const acct = await setupAccount(srv.url);
  const lines = fixtureLines({ visitors: 4, months: 2, eventsPerVisit: 2 });
  await importAll(srv.url, acct, lines);
  await waitSettled(s3.client('deno'), (k) => k.some((x) => x.startsWith('visits/')));
  await srv.stop();
  const files = await expectMirrored(srv, s3.client('deno'));
  expect(files.filter((f) => f.tbl === 'events').reduce((n, f) => n + f.rows, 0)).toBe(lines.length);
}, 90_000);
