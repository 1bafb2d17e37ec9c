// An S3-compatible store for tests: s3rver, in this process, on a free loopback port with a temp directory.
// stop() and start() again on the same port and directory play a store that goes away and comes back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { ObjectStore } from '../../src/storage/object-store.ts';

export type TestS3 = {
  endpoint: string;
  bucket: string;
  /** The env a Tern server needs to mirror into `prefix` of the bucket. */
  env(prefix: string): Record<string, string>;
  /** A client on the same bucket and prefix, to look at what the server put there. */
  client(prefix: string): ObjectStore;
  stop(): Promise<void>;
  start(): Promise<void>;
  cleanup(): Promise<void>;
};

export async function startS3(bucket = 'tern-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'tern-s3-'));
  let port = 0;
  let server: any;
  const start = async () => {
    server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
    const addr = await server.run();
    port = addr.port;
  };
  const stop = async () => {
    if (!server) return;
    const s = server;
    server = undefined;
    s.httpServer?.closeAllConnections?.();
    await s.close();
  };
  await start();
  const endpoint = () => `http://127.0.0.1:${port}`;
  return {
    get endpoint() { return endpoint(); },
    bucket,
    env: (prefix) => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`, STORAGE_ENDPOINT: endpoint(), STORAGE_REGION: 'us-east-1',
      STORAGE_ACCESS_KEY_ID: 'S3RVER', STORAGE_SECRET_ACCESS_KEY: 'S3RVER',
      // Tests look at the bucket right after a change; the grace has its own test.
      STORAGE_DELETE_GRACE_SECONDS: '0',
    }),
    client: (prefix) => new ObjectStore({ bucket, prefix, endpoint: endpoint(), region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true }),
    stop,
    start,
    cleanup: async () => { await stop(); rmSync(directory, { recursive: true, force: true }); },
  };
}
