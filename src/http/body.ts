// Reads a request body as text with a hard byte cap, refusing early so a huge body is never held in memory.
import { ApiError } from './errors.ts';

/** An event's or identify call's body (the runtime's MAX_BODY_BYTES caps every other request, far higher). */
export const MAX_EVENT_BODY_BYTES = 64 * 1024;
const decoder = new TextDecoder();

type Fail = (status: number, msg: string) => ApiError;
const tooLarge = (fail: Fail, max: number) => fail(413, `Request body too large: at most ${max / 1024} KiB`);

/**
 * Throws 413 from Content-Length alone when it says too much, else while counting streamed bytes.
 * Not an async function: the event route's usual case (a Content-Length) is the runtime's own promise, one
 * promise and one resumption fewer per event.
 */
export function readCapped(request: Request, fail: Fail, max = MAX_EVENT_BODY_BYTES): Promise<string> {
  const length = request.headers.get('content-length');
  if (length === null) return readStreamed(request, fail, max);
  // HTTP/1.1 delivers exactly Content-Length bytes, so the declared size is the size read. text() decodes
  // in the runtime (a microsecond less than arrayBuffer() and a TextDecoder, per event).
  if (Number(length) > max) throw tooLarge(fail, max);
  return request.text();
}

async function readStreamed(request: Request, fail: Fail, max: number): Promise<string> {
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      void reader.cancel().catch(() => {});
      throw tooLarge(fail, max);
    }
    chunks.push(value);
  }
  return decoder.decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
}
