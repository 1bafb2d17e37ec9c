// Process-level behaviour (contract §1): one server per DATA_DIR, clear config errors, clean exit on SIGTERM.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { withServer } from '../helpers/fixture.ts';
import { startServer } from '../helpers/server.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client } from '../helpers/api.ts';

const root = join(import.meta.dir, '..', '..');

/** Runs src/main.ts to completion (or kills it after 20 s) and returns its exit code and output. */
async function runToExit(env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, join(root, 'src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  clearTimeout(timer);
  return { code, output: out + err };
}

const fx = withServer();

test('a second server on the same DATA_DIR exits non-zero with a clear message; the first keeps working', async () => {
  const api = client(fx.srv.url);
  const reg = await api.post('/api/v1/auth/register', { email: 'first@example.com', password: 'long enough' });
  expect(reg.status).toBe(201);
  const second = await runToExit({ DATA_DIR: fx.srv.dataDir });
  expect(second.code).not.toBe(0);
  expect(second.output).toContain(`DATA_DIR ${fx.srv.dataDir} is in use by another Tern server`);
  expect(second.output).not.toMatch(/\n\s+at /); // a message, not a stack trace
  expect((await api.get('/api/v1/auth/me', reg.body.data.token)).status).toBe(200);
  expect((await api.post('/api/v1/auth/login', { email: 'first@example.com', password: 'long enough' })).status).toBe(200);
}, 30_000);

test.each([
  [{ PORT: 'eighty' }, 'PORT'],
  [{ PORT: '70000' }, 'PORT'],
  [{ AUTH_RATE_LIMIT: '100' }, 'AUTH_RATE_LIMIT'],
  [{ AUTH_RATE_LIMIT: '4' }, 'AUTH_RATE_LIMIT'],
  [{ DEFAULT_PLAN: 'gold' }, 'DEFAULT_PLAN'],
  [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
  [{ ALLOW_REGISTRATION: 'nope' }, 'ALLOW_REGISTRATION'],
  [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  [{ STORAGE_URL: 's3://tern-bucket/events', STORAGE_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, 'STORAGE_SECRET_ACCESS_KEY'],
])('bad config %o → exit 1 naming %s', async (env, name) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tern-badcfg-'));
  try {
    const r = await runToExit({ DATA_DIR: dataDir, ...env });
    expect(r.code).toBe(1);
    expect(r.output).toContain('tern: Invalid configuration:');
    expect(r.output).toContain(`${name}:`);
    expect(r.output).not.toMatch(/\n\s+at /);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 30_000);

test('a port already in use → exit 1 with a message naming HOST and PORT, not a stack trace', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tern-port-'));
  try {
    const port = new URL(fx.srv.url).port;
    const r = await runToExit({ DATA_DIR: dataDir, PORT: port });
    expect(r.code).toBe(1);
    expect(r.output).toContain(`tern: cannot listen on 127.0.0.1:${port}: the port is already in use`);
    expect(r.output).not.toMatch(/\n\s+at /);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 30_000);

test('SIGTERM: the server drains and exits 0, and its DATA_DIR opens again', async () => {
  const other = await startServer();
  try {
    const reg = await client(other.url).post('/api/v1/auth/register', { email: 'term@example.com', password: 'long enough' });
    expect(reg.status).toBe(201);
    expect(await other.stop()).toBe(0);
    const again = await startServer({ dataDir: other.dataDir });
    try {
      expect((await client(again.url).get('/api/v1/auth/me', reg.body.data.token)).status).toBe(200);
    } finally {
      await again.stop();
    }
  } finally {
    await other.cleanup();
  }
}, 30_000);
