// Long requests (a bulk import of millions of lines) outlast the server's 30 s idle timeout once the
// body is read; past a few seconds the answer is streamed, led by whitespace that keeps the connection alive.
import { log } from '../log.ts';
import { ApiError } from './errors.ts';

const encoder = new TextEncoder();

/**
 * The result itself when `work` settles within `graceMs` of `started` (e.g. the request body fully
 * read, so the answer never begins mid-upload; errors keep their status); otherwise a 200
 * JSON response that sends a space every few seconds and then the result (or {"error"} if it failed late).
 * Leading whitespace is valid JSON, so clients parse the body as usual.
 */
export async function answerPatiently<T>(work: Promise<T>, started: Promise<void>, graceMs = 5000): Promise<T | Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const early = await Promise.race([
    work.then((value) => ({ value })),
    started.then(() => new Promise<null>((r) => (timer = setTimeout(() => r(null), graceMs)))),
  ]).finally(() => clearTimeout(timer));
  if (early) return early.value;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const beat = setInterval(() => controller.enqueue(encoder.encode(' ')), graceMs);
      controller.enqueue(encoder.encode(' '));
      work
        .then((v) => JSON.stringify(v), (e) => {
          // The 200 is already on the wire: the body still says what failed, as an ordinary error would.
          if (e instanceof ApiError) return JSON.stringify({ error: e.message });
          log.error('long request failed after its answer began', { error: String((e as Error)?.stack ?? e) });
          return JSON.stringify({ error: 'Internal server error' });
        })
        .then((text) => {
          clearInterval(beat);
          controller.enqueue(encoder.encode(text));
          controller.close();
        });
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}
