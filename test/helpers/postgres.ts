// A private PostgreSQL cluster for one test file: initdb in a temp dir, postgres on a free loopback port, trust auth.
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

export type TestPostgres = { url: string; stop(): Promise<void> };

/** The newest Debian PostgreSQL binaries, or undefined when none are installed. */
export function postgresBin(): string | undefined {
  const base = process.env.TERN_POSTGRESQL_DIR || '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(base, versions[0], 'bin');
}

/** Why PostgreSQL tests cannot run here (one line), or undefined when they can. */
export function postgresUnavailable(): string | undefined {
  if (!postgresBin()) return 'PostgreSQL tests skipped: no PostgreSQL server in /usr/lib/postgresql (apt-get install -y postgresql)';
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser')) return 'PostgreSQL tests skipped: running as root without runuser';
  return undefined;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/** initdb refuses root: as root the cluster belongs to the postgres user and its commands run as that user. */
function asOwner(cmd: string[]): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd;
}

async function run(cmd: string[]) {
  const p = Bun.spawn(asOwner(cmd), { stdout: 'pipe', stderr: 'pipe' });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  if (code !== 0) throw new Error(`${cmd[0]} exited ${code}: ${err}`);
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresUnavailable());
  const dir = mkdtempSync(join(tmpdir(), 'tern-pg-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = await postgresIds();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  await run([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'tern', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const proc = Bun.spawn(
      asOwner([join(bin, 'postgres'), '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off',
        '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200']),
      { stdout: 'ignore', stderr: 'pipe' },
    );
    const url = `postgres://tern@127.0.0.1:${port}/postgres`;
    try {
      await ready(url, proc);
      let stopped = false;
      return {
        url,
        stop: async () => {
          if (stopped) return;
          stopped = true;
          // runuser does not pass signals on: the postmaster (its pid heads postmaster.pid) gets SIGINT, a fast shutdown.
          const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
          try {
            process.kill(pid, 'SIGINT');
          } catch {
            proc.kill('SIGKILL');
          }
          await proc.exited;
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (e) {
      lastError = e;
      try {
        process.kill(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGKILL');
      } catch {}
      proc.kill('SIGKILL');
      await proc.exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

async function ready(url: string, proc: ReturnType<typeof Bun.spawn>) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`postgres exited ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()}`);
    const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`SELECT 1`;
      return;
    } catch {
      await Bun.sleep(100);
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
  throw new Error('postgres did not become ready in 30 s');
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const line = (await Bun.file('/etc/passwd').text()).split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user (install Debian postgresql)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A fresh, empty database on the cluster (one per server or test group), as a DATABASE_URL. */
export async function createDatabase(pg: TestPostgres, name: string): Promise<string> {
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.end({ timeout: 1 });
  }
  return pg.url.replace(/\/postgres$/, `/${name}`);
}
