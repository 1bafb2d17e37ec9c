// The one place that knows whether we run on Bun or Deno: serving HTTP, the socket address, mapped files.
import { Buffer } from 'node:buffer';

export type Handler = (request: Request) => Response | Promise<Response>;
/**
 * A POST route the runtime serves itself, ahead of admit() and the framework: it caps its own body and gets
 * the peer address as an argument. On Bun its native router calls it (the event route: ~2 µs less of the
 * main thread per event than the framework's routing, the peer-address map and admit()); on Deno the
 * framework serves the same path with the same function.
 */
export type DirectRoute = (request: Request, peer: () => string) => Response | Promise<Response>;
export type RunningServer = { port: number; stop(): Promise<void> };

declare const Bun: any;
declare const Deno: any;

export const runtimeName: 'bun' | 'deno' = typeof Bun !== 'undefined' ? 'bun' : 'deno';

/** Looked up only when asked for: behind a trusted proxy the event route never needs it (~2% of its main-thread time). */
const socketAddresses = new WeakMap<Request, () => string | undefined>();

/** The peer address of the TCP connection that carried this request ('' when unknown, e.g. in-process calls). */
export function socketAddress(request: Request): string {
  return socketAddresses.get(request)?.() ?? '';
}

/** The largest request body any route accepts (ingest has its own, smaller limit). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Bulk imports stream NDJSON bodies of any size (read line by line by src/ingest/import.ts): no limit there. */
const unlimitedBody = (request: Request) => request.method === 'POST' && /\/events\/import(\?|$)/.test(request.url);

/**
 * Holds every route but the bulk import to MAX_BODY_BYTES. A declared-too-large body gets the API's JSON
 * error shape instead of the runtime's bare 413. Deno has no body-size limit of its own (and Bun's is lifted
 * for imports): a chunked body (no Content-Length) is counted as it streams and fails past the limit, which
 * the parsers turn into a 400 instead of unbounded memory. A body with a Content-Length passes as it is
 * (HTTP/1.1 delivers exactly that many bytes): the event route's case, decided from one header read, since
 * every header read, the URL and reading request.body (Bun then builds a stream) cost on every event POST.
 */
function admit(request: Request): Request | Response {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    return Number(declared) > MAX_BODY_BYTES && !unlimitedBody(request) ? Response.json({ error: 'Request body too large' }, { status: 413 }) : request;
  }
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body || unlimitedBody(request)) return request;
  let seen = 0;
  const body = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        seen += chunk.byteLength;
        if (seen > MAX_BODY_BYTES) out.error(new Error('Request body too large'));
        else out.enqueue(chunk);
      },
    }),
  );
  // Not new Request(request, …): reading request.signal makes Deno warn about its legacy abort behaviour.
  return new Request(request.url, { method: request.method, headers: request.headers, body, duplex: 'half' } as RequestInit);
}

/** Admits the request, remembers how to find its peer address, and hands it on. */
function admitted(handler: Handler, original: Request, peer: () => string | undefined): Response | Promise<Response> {
  const request = admit(original);
  if (request instanceof Response) return request;
  socketAddresses.set(request, peer);
  return handler(request);
}

/**
 * A read-only file's bytes without copying them onto the heap: mapped on Bun (pages come from the page cache
 * and are shared, evictable and never counted twice), read on Deno, which has no mmap.
 */
export function mappedFile(path: string): Buffer {
  const bytes: Uint8Array = runtimeName === 'bun' ? Bun.mmap(path, { shared: false }) : Deno.readFileSync(path);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A full garbage collection now, on Bun. A long download makes a new buffer per chunk; Bun's collector let
 * them pile up (5.9 GB streamed from a file: RSS 121 → 411 MB, flat ~170 MB when collected every 64 MB, for
 * ~45 ms of CPU per collection). Deno exposes no collector to call: nothing happens there.
 */
export function collectGarbage() {
  if (runtimeName === 'bun') Bun.gc(true);
}

export class ListenError extends Error {}

/** `idleTimeoutS`: how long a connection may stay quiet before Bun closes it (default 30). */
type ServeOptions = { port: number; hostname: string; idleTimeoutS?: number };

/**
 * Bun closes a connection quiet for its idle timeout, and a request still being answered counts as quiet: an
 * erasure, an import or a long report under load could outlast it, and its caller saw a reset for work that was
 * done. The limit is lifted while the handler runs and set again once it has answered (a streamed body keeps the
 * connection busy), so connections idle between requests are still closed.
 */
async function unhurried(srv: any, request: Request, idleTimeoutS: number, answer: () => Response | Promise<Response>): Promise<Response> {
  srv.timeout(request, 0);
  try {
    return await answer();
  } finally {
    srv.timeout(request, idleTimeoutS);
  }
}

/** Listens on opts.hostname:opts.port; a port in use or a bad address becomes a ListenError with a plain message. */
export async function serve(handler: Handler, opts: ServeOptions, direct: Record<string, DirectRoute> = {}): Promise<RunningServer> {
  try {
    return await listen(handler, opts, direct);
  } catch (e: any) {
    const inUse = e?.code === 'EADDRINUSE' || e?.name === 'AddrInUse';
    const reason = inUse ? 'the port is already in use' : String(e?.message ?? e).split('\n')[0];
    throw new ListenError(`cannot listen on ${opts.hostname}:${opts.port}: ${reason} (check HOST and PORT)`);
  }
}

async function listen(handler: Handler, opts: ServeOptions, direct: Record<string, DirectRoute>): Promise<RunningServer> {
  if (runtimeName === 'bun') {
    const idle = opts.idleTimeoutS ?? 30;
    // Other methods on these paths fall through to fetch.
    const routes = Object.fromEntries(Object.entries(direct).map(([path, route]) =>
      [path, { POST: (request: Request, srv: any) => route(request, () => srv.requestIP(request)?.address ?? '') }]));
    const server = Bun.serve({
      port: opts.port,
      hostname: opts.hostname,
      // Bun's limit is global, so it only stops the absurd; admit() holds every route but the bulk import
      // to MAX_BODY_BYTES.
      maxRequestBodySize: 2 ** 40,
      idleTimeout: idle,
      fetch: (original: Request, srv: any) => unhurried(srv, original, idle, () => admitted(handler, original, () => srv.requestIP(original)?.address)),
      routes,
    });
    return { port: server.port, stop: async () => { await server.stop(true); } };
  }
  let resolvePort!: (p: number) => void;
  const listening = new Promise<number>((r) => (resolvePort = r));
  const server = Deno.serve(
    { port: opts.port, hostname: opts.hostname, onListen: ({ port }: { port: number }) => resolvePort(port) },
    (original: Request, info: any) => admitted(handler, original, () => info?.remoteAddr?.hostname),
  );
  const port = await listening;
  return { port, stop: async () => { await server.shutdown(); } };
}
