// Starts a real Tern server as a child process on a random port with a fresh temp DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from './postgres.ts';

export type TestServer = {
  url: string;
  dataDir: string;
  /** Set when the server keeps its metadata in PostgreSQL (DATABASE_URL). */
  databaseUrl?: string;
  proc: ReturnType<typeof Bun.spawn>;
  logs: () => string;
  /** SIGTERM and wait; keeps DATA_DIR so a test can restart on it. */
  stop(): Promise<number>;
  /** SIGKILL, no drain. */
  kill(): Promise<void>;
  /** Stop (if running) and delete DATA_DIR. */
  cleanup(): Promise<void>;
};

const root = join(import.meta.dir, '..', '..');

/**
 * TERN_TEST_POSTGRES=<cluster URL> (test/storage/postgres-metadata.test.ts sets it for a child `bun test`):
 * every server started here keeps its metadata in a fresh PostgreSQL database of that cluster, so the same
 * test files run against either store. An explicit DATABASE_URL in `env` wins.
 */
let databases = 0;
/** A restart on the same DATA_DIR finds the same metadata. */
const databaseOf = new Map<string, string>();
async function metadataEnv(dataDir: string, env: Record<string, string> | undefined): Promise<Record<string, string>> {
  const cluster = process.env.TERN_TEST_POSTGRES;
  if (!cluster || env?.DATABASE_URL !== undefined) return {};
  let url = databaseOf.get(dataDir);
  if (!url) {
    url = await createDatabase({ url: cluster, stop: async () => {} }, `tern_${process.pid}_${++databases}`);
    databaseOf.set(dataDir, url);
  }
  return { DATABASE_URL: url };
}

/** `fileSizeLimitKb`: the server runs under `ulimit -f` (writes past that size fail with EFBIG, as on a full disk). */
export async function startServer(opts: { env?: Record<string, string>; dataDir?: string; runtime?: 'bun' | 'deno'; fileSizeLimitKb?: number } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'tern-test-'));
  const server = opts.runtime === 'deno'
    ? [join(root, 'node_modules/.bin/deno'), 'run', '-A', '--quiet', join(root, 'src/main.ts')]
    : [process.execPath, join(root, 'src/main.ts')];
  const metadata = await metadataEnv(dataDir, opts.env);
  const cmd = opts.fileSizeLimitKb ? ['sh', '-c', `ulimit -f ${opts.fileSizeLimitKb} && exec "$@"`, 'sh', ...server] : server;
  const proc = Bun.spawn(cmd, {
    cwd: root,
    // Sealed log segments load at once (not every 5 s) unless a test says otherwise: tests read what they sent.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', INGEST_LOAD_INTERVAL_MS: '0', ...metadata, ...opts.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const dec = new TextDecoder();
      for await (const chunk of stream) {
        output += dec.decode(chunk);
        const m = output.match(/"msg":"listening","port":(\d+)/);
        if (m) { clearTimeout(timer); resolve(Number(m[1])); }
      }
    };
    // The exit can be seen before the last of stderr is read: reject once both streams have ended, so a failed
    // start always shows the server's own message.
    const drained = Promise.all([pump(proc.stdout as ReadableStream<Uint8Array>), pump(proc.stderr as ReadableStream<Uint8Array>)]).catch(() => {});
    void proc.exited.then(async (code) => {
      await drained;
      clearTimeout(timer);
      reject(new Error(`server exited ${code}:\n${output}`));
    });
  });
  let running = true;
  const stop = async () => {
    if (!running) return 0;
    proc.kill('SIGTERM');
    const code = await proc.exited;
    running = false;
    return code;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl: opts.env?.DATABASE_URL ?? metadata.DATABASE_URL,
    proc,
    logs: () => output,
    stop,
    kill: async () => { if (running) { proc.kill('SIGKILL'); await proc.exited; running = false; } },
    cleanup: async () => { await stop(); rmSync(dataDir, { recursive: true, force: true }); },
  };
}
