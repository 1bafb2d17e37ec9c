// Unexpected faults (contract §2): 500 {"error":"Internal server error"}, details only in the log, no secret in it.
// No public route fails on purpose, so this serves the real error handler and runtime with two routes that do.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { z } from 'zod';
import { errorHandler } from '../../src/http/error-handler.ts';
import { serve, type RunningServer } from '../../src/runtime/index.ts';

const SECRET = `sk_live_${'ab'.repeat(16)}`;
const logged: string[] = [];
const originalError = console.error;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
  const app = new Elysia()
    .use(errorHandler)
    .get('/db-fault', () => {
      throw new Error('Catalog Error: Table with name secrets does not exist! SELECT * FROM secrets');
    })
    // A handler whose reply breaks its own schema while holding a once-shown secret.
    .get('/bad-response', () => ({ key: SECRET, count: 'many' }) as any, { response: { 200: z.object({ key: z.string(), count: z.number() }) } });
  server = await serve((req) => app.handle(req), { port: 0, hostname: '127.0.0.1' });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  console.error = originalError;
  await server.stop();
});

test('a thrown error → 500 with only the generic message; the log has the details', async () => {
  const r = await fetch(`${base}/db-fault`);
  expect(r.status).toBe(500);
  expect(await r.json()).toEqual({ error: 'Internal server error' });
  expect(logged.join('\n')).toContain('Catalog Error');
});

test('a response failing its schema → 500, not a 400 blamed on the client, and the secret is not logged', async () => {
  const r = await fetch(`${base}/bad-response`);
  expect(r.status).toBe(500);
  const text = await r.text();
  expect(JSON.parse(text)).toEqual({ error: 'Internal server error' });
  expect(text).not.toContain(SECRET);
  const line = logged.find((l) => l.includes('response failed its schema'))!;
  expect(line).toContain('count');
  expect(logged.join('\n')).not.toContain(SECRET);
});
