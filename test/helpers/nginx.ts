// Debian's nginx as a consistent-hash router in front of several Tern nodes: a config written into a temp
// directory (logs, pid and temp paths inside it), `daemon off`, on a free loopback port; stop() ends it.
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = process.env.TERN_NGINX || '/usr/sbin/nginx';

/** Why the router tests cannot run here (one line), or undefined when nginx is installed. */
export function nginxUnavailable(): string | undefined {
  try {
    accessSync(NGINX, constants.X_OK);
    return undefined;
  } catch {
    return `${NGINX} not found: the tests of nodes behind a router are skipped (apt-get install -y nginx as root)`;
  }
}

export type TestRouter = { url: string; stop(): Promise<void> };

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/**
 * `hashOn`: the nginx variable that picks a node. `$remote_addr` in front of clients; `$http_x_forwarded_for`
 * when the router sits behind a proxy that already replaced X-Forwarded-For with the client's address (the
 * header is then passed on as it came, and Tern, with TRUST_PROXY=true, takes it as the client).
 */
export async function startRouter(upstreams: string[], hashOn: '$remote_addr' | '$http_x_forwarded_for' = '$remote_addr'): Promise<TestRouter> {
  const dir = mkdtempSync(join(tmpdir(), 'tern-nginx-'));
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join('\n    ');
  writeFileSync(join(dir, 'nginx.conf'), `
daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
    access_log ${join(dir, 'access.log')};
    ${temp}
    upstream tern {
        hash ${hashOn} consistent;
        ${upstreams.map((u) => `server ${u.replace(/^https?:\/\//, '')};`).join('\n        ')}
        keepalive 16;
    }
    server {
        listen 127.0.0.1:${port};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For ${hashOn === '$remote_addr' ? '$remote_addr' : '$http_x_forwarded_for'};
        # Which node answered: tests check that the hash spreads clients over both.
        add_header X-Tern-Upstream $upstream_addr always;
        location / {
            proxy_pass http://tern;
            client_max_body_size 16m;
        }
    }
}
`);
  const proc = Bun.spawn([NGINX, '-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], { stdout: 'ignore', stderr: 'pipe' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()}`);
    const up = await fetch(`${url}/health`).then((r) => r.status === 200, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error('nginx did not start');
    await Bun.sleep(50);
  }
  return {
    url,
    stop: async () => {
      proc.kill('SIGQUIT');
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
