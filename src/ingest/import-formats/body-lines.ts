// An import body as a stream of bytes (gunzipped when it starts with gzip's magic bytes) and as lines.
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiError } from '../../http/errors.ts';

export const MAX_LINE_CHARS = 64 * 1024;

/**
 * The body's bytes; a gzip body (magic 1f 8b, whatever the Content-Encoding says: rotated access logs are
 * sent as they lie on disk) is decompressed as it streams. Multi-member files (`cat a.gz b.gz`) work too.
 */
export async function* bodyBytes(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let first = await reader.read();
  while (!first.done && first.value.byteLength === 0) first = await reader.read();
  if (first.done) return;
  const head = first.value;
  async function* raw() {
    yield head;
    for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) return yield* raw();
  const gunzip = Readable.from(raw()).pipe(createGunzip());
  try {
    for await (const chunk of gunzip as AsyncIterable<Uint8Array>) yield chunk;
  } catch (e) {
    throw new ApiError(400, `The body looks gzip-compressed but could not be decompressed: ${(e as Error).message}`);
  }
}

/** True when the first bytes are `magic` (consumes nothing: returns the bytes again with the answer). */
export async function peek(bytes: AsyncIterable<Uint8Array>, magic: number[]): Promise<{ match: boolean; bytes: AsyncGenerator<Uint8Array> }> {
  const it = bytes[Symbol.asyncIterator]();
  const first = await it.next();
  const head = first.done ? new Uint8Array() : first.value;
  async function* again() {
    if (!first.done) yield head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { match: magic.every((b, i) => head[i] === b), bytes: again() };
}

/** Lines of a byte stream, decoded as UTF-8 (a BOM dropped, a trailing \r cut); a line longer than the cap is null. */
export async function* lines(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string | null> {
  const decoder = new TextDecoder();
  let partial = '';
  let overflow = false;
  const out = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
  for await (const chunk of bytes) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (overflow) { overflow = false; partial = ''; yield null; continue; }
      const line = partial ? partial + piece : piece;
      partial = '';
      yield line.length > MAX_LINE_CHARS ? null : out(line);
    }
    if (!overflow) {
      partial += text.slice(start);
      if (partial.length > MAX_LINE_CHARS) { overflow = true; partial = ''; }
    }
  }
  const rest = partial + decoder.decode();
  if (overflow) yield null;
  else if (rest) yield out(rest);
}
