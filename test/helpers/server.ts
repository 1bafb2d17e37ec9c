// Starts a real Tern server as a child process on a random port with a fresh temp DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TestServer = {
  url: string;
  dataDir: string;
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

/** `fileSizeLimitKb`: the server runs under `ulimit -f` (writes past that size fail with EFBIG, as on a full disk). */
export async function startServer(opts: { env?: Record<string, string>; dataDir?: string; runtime?: 'bun' | 'deno'; fileSizeLimitKb?: number } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'tern-test-'));
  const server = opts.runtime === 'deno'
    ? [join(root, 'node_modules/.bin/deno'), 'run', '-A', '--quiet', join(root, 'src/main.ts')]
    : [process.execPath, join(root, 'src/main.ts')];
  const cmd = opts.fileSizeLimitKb ? ['sh', '-c', `ulimit -f ${opts.fileSizeLimitKb} && exec "$@"`, 'sh', ...server] : server;
  const proc = Bun.spawn(cmd, {
    cwd: root,
    // Sealed log segments load at once (not every 5 s) unless a test says otherwise: tests read what they sent.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', INGEST_LOAD_INTERVAL_MS: '0', ...opts.env },
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
    proc,
    logs: () => output,
    stop,
    kill: async () => { if (running) { proc.kill('SIGKILL'); await proc.exited; running = false; } },
    cleanup: async () => { await stop(); rmSync(dataDir, { recursive: true, force: true }); },
  };
}
