// A small S3 client (any S3-compatible store: AWS, MinIO, R2, s3rver) on aws4fetch's request signing:
// put (multipart from 8 MiB), get, list, delete. Runs the same on Bun and Deno (fetch + Web Crypto).
import { AwsClient } from 'aws4fetch';
import { open } from 'node:fs/promises';

export type ObjectStoreOptions = {
  bucket: string;
  /** Key prefix without leading or trailing slash ('' for the bucket's root). */
  prefix: string;
  /** e.g. http://127.0.0.1:9000; AWS's regional endpoint when unset. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

/** Files from this size go up in parts (S3's parts are at least 5 MiB, all but the last). */
export const MULTIPART_FROM = 8 * 1024 * 1024;
const PART_SIZE = 8 * 1024 * 1024;

export class ObjectStoreError extends Error {}

export class ObjectStore {
  private aws: AwsClient;

  constructor(readonly opts: ObjectStoreOptions) {
    // aws4fetch's own retries are off: the mirror retries whole files with its own backoff.
    this.aws = new AwsClient({ accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, service: 's3', region: opts.region, retries: 0 });
  }

  /** The full key of `key` (relative to the prefix). */
  key(key: string) { return this.opts.prefix ? `${this.opts.prefix}/${key}` : key; }

  /** Where the store is, for logs and for telling stores apart (no credential in it). */
  describe() { return `s3://${this.opts.bucket}/${this.opts.prefix}@${this.base()}`; }

  private base(): string {
    const { endpoint, region, bucket, forcePathStyle } = this.opts;
    const origin = (endpoint ?? `https://s3.${region}.amazonaws.com`).replace(/\/+$/, '');
    if (forcePathStyle) return `${origin}/${bucket}`;
    const u = new URL(origin);
    u.hostname = `${bucket}.${u.hostname}`;
    return u.origin;
  }

  /** The HTTP(S) URL of `key` (relative to the prefix): what ClickHouse's s3() reads. */
  objectUrl(key: string) { return this.url(this.key(key)); }

  private url(fullKey: string, query = '') {
    return `${this.base()}/${fullKey.split('/').map(encodeURIComponent).join('/')}${query}`;
  }

  private async call(method: string, url: string, init: { body?: BodyInit; headers?: Record<string, string>; signal?: AbortSignal; ok?: number[] } = {}) {
    const res = await this.aws.fetch(url, { method, body: init.body, headers: init.headers, signal: init.signal });
    if (!res.ok && !(init.ok ?? []).includes(res.status)) {
      const text = await res.text().catch(() => '');
      const code = text.match(/<Code>([^<]*)<\/Code>/)?.[1];
      throw new ObjectStoreError(`${method} ${url.replace(/\?.*/, '')}: ${res.status}${code ? ` ${code}` : ''}`);
    }
    return res;
  }

  async putBytes(key: string, body: Uint8Array, contentType = 'application/octet-stream', signal?: AbortSignal) {
    await (await this.call('PUT', this.url(this.key(key)), { body: body as BodyInit, headers: { 'content-type': contentType }, signal })).arrayBuffer();
  }

  /** Uploads a local file: one PUT, or parts of 8 MiB read one at a time (memory stays one part). */
  async putFile(key: string, path: string, signal?: AbortSignal) {
    const f = await open(path, 'r');
    try {
      const { size } = await f.stat();
      if (size < MULTIPART_FROM) {
        const buf = new Uint8Array(size);
        await f.read(buf, 0, size, 0);
        return await this.putBytes(key, buf, 'application/vnd.apache.parquet', signal);
      }
      await this.multipart(key, size, async (pos, len) => {
        const buf = new Uint8Array(len);
        await f.read(buf, 0, len, pos);
        return buf;
      }, signal);
    } finally {
      await f.close();
    }
  }

  private async multipart(key: string, size: number, read: (pos: number, len: number) => Promise<Uint8Array>, signal?: AbortSignal) {
    const url = this.url(this.key(key));
    const created = await (await this.call('POST', `${url}?uploads`, { headers: { 'content-type': 'application/vnd.apache.parquet' }, signal })).text();
    const uploadId = created.match(/<UploadId>([^<]+)<\/UploadId>/)?.[1];
    if (!uploadId) throw new ObjectStoreError(`POST ${url}?uploads: no UploadId`);
    const id = encodeURIComponent(uploadId);
    try {
      const etags: string[] = [];
      for (let pos = 0, n = 1; pos < size; pos += PART_SIZE, n++) {
        const res = await this.call('PUT', `${url}?partNumber=${n}&uploadId=${id}`, { body: (await read(pos, Math.min(PART_SIZE, size - pos))) as BodyInit, signal });
        await res.arrayBuffer();
        etags.push(res.headers.get('etag') ?? '');
      }
      const parts = etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}</ETag></Part>`).join('');
      const done = await (await this.call('POST', `${url}?uploadId=${id}`, { body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`, headers: { 'content-type': 'application/xml' }, signal })).text();
      // S3 may answer 200 with an error document when completing fails late.
      if (/<Error>/.test(done)) throw new ObjectStoreError(`POST ${url}?uploadId: ${done.match(/<Code>([^<]*)<\/Code>/)?.[1] ?? 'error'}`);
    } catch (e) {
      await this.call('DELETE', `${url}?uploadId=${id}`, { ok: [404] }).catch(() => {});
      throw e;
    }
  }

  /** The object's bytes, or undefined when there is none. */
  async get(key: string): Promise<Uint8Array | undefined> {
    const res = await this.call('GET', this.url(this.key(key)), { ok: [404] });
    if (res.status === 404) { await res.arrayBuffer(); return undefined; }
    return new Uint8Array(await res.arrayBuffer());
  }

  /** Deleting a key that is not there succeeds (S3 answers 204 either way; some stores 404). */
  async delete(key: string, signal?: AbortSignal) {
    await (await this.call('DELETE', this.url(this.key(key)), { ok: [404], signal })).arrayBuffer();
  }

  /** Keys (relative to the prefix) and sizes of every object under `under`. */
  async list(under = ''): Promise<{ key: string; size: number }[]> {
    const full = this.key(under);
    const strip = this.opts.prefix ? this.opts.prefix.length + 1 : 0;
    const out: { key: string; size: number }[] = [];
    // Paged with start-after (the last key seen) rather than continuation tokens: every S3-compatible store has it.
    let after: string | undefined;
    do {
      const q = `?list-type=2&prefix=${encodeURIComponent(full)}${after ? `&start-after=${encodeURIComponent(after)}` : ''}`;
      const xml = await (await this.call('GET', `${this.base()}/${q}`)).text();
      let last: string | undefined;
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        last = unescapeXml(m[1]!.match(/<Key>([^<]*)<\/Key>/)?.[1] ?? '');
        out.push({ key: last.slice(strip), size: Number(m[1]!.match(/<Size>(\d+)<\/Size>/)?.[1] ?? 0) });
      }
      after = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? last : undefined;
    } while (after);
    return out;
  }
}

const unescapeXml = (s: string) => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');
