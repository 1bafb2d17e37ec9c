// STORAGE_* and CLICKHOUSE_CLUSTER configuration: a bad value is refused at start with a message naming the variable
// (never a credential's value); good values become the stores' options; unset, nothing of it is configured.
import { expect, test } from 'bun:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

const ok = { STORAGE_URL: 's3://tern-bucket/a/b/', STORAGE_ACCESS_KEY_ID: 'AKIA-ID', STORAGE_SECRET_ACCESS_KEY: 'very-secret-value' };

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

test('unset: no object storage, and an empty STORAGE_URL means unset', () => {
  expect(loadConfig({}).objectStorage).toBeUndefined();
  expect(loadConfig({ STORAGE_URL: '' }).objectStorage).toBeUndefined();
});

test('s3://bucket/prefix with an endpoint: path style by default, prefix without slashes, default region', () => {
  expect(loadConfig({ ...ok, STORAGE_ENDPOINT: 'http://127.0.0.1:9000' }).objectStorage).toEqual({
    bucket: 'tern-bucket', prefix: 'a/b', readPrefixes: ['a/b'], endpoint: 'http://127.0.0.1:9000', region: 'us-east-1',
    accessKeyId: 'AKIA-ID', secretAccessKey: 'very-secret-value', forcePathStyle: true, deleteGraceMs: 60_000,
  });
  const aws = loadConfig({ ...ok, STORAGE_URL: 's3://tern-bucket', STORAGE_REGION: 'eu-west-3' }).objectStorage!;
  expect([aws.prefix, aws.endpoint, aws.region, aws.forcePathStyle]).toEqual(['', undefined, 'eu-west-3', false]);
  expect(loadConfig({ ...ok, STORAGE_ENDPOINT: 'https://minio.internal', STORAGE_FORCE_PATH_STYLE: 'false' }).objectStorage!.forcePathStyle).toBe(false);
});

test.each([
  [{ STORAGE_URL: 'http://tern-bucket/x' }, 'STORAGE_URL'],
  [{ STORAGE_URL: 's3://' }, 'STORAGE_URL'],
  [{ STORAGE_URL: 's3://Bad_Bucket' }, 'STORAGE_URL'],
  [{ STORAGE_ENDPOINT: 'ftp://127.0.0.1' }, 'STORAGE_ENDPOINT'],
  [{ STORAGE_ENDPOINT: 'not a url' }, 'STORAGE_ENDPOINT'],
  [{ STORAGE_ENDPOINT: 'http://key:secret@127.0.0.1:9000' }, 'STORAGE_ENDPOINT'],
  [{ STORAGE_REGION: 'US East' }, 'STORAGE_REGION'],
  [{ STORAGE_FORCE_PATH_STYLE: 'yes' }, 'STORAGE_FORCE_PATH_STYLE'],
  [{ STORAGE_DELETE_GRACE_SECONDS: '-1' }, 'STORAGE_DELETE_GRACE_SECONDS'],
  [{ STORAGE_ACCESS_KEY_ID: '' }, 'STORAGE_ACCESS_KEY_ID'],
  [{ STORAGE_SECRET_ACCESS_KEY: '' }, 'STORAGE_SECRET_ACCESS_KEY'],
])('%o is refused naming %s, without the secret', (bad, name) => {
  const msg = refusal({ ...ok, ...bad });
  expect(msg).toContain(`${name}:`);
  expect(msg).not.toContain('very-secret-value');
});

test('STORAGE_READ_PREFIXES: this node\'s prefix first, then the others, each once, slashes and spaces trimmed', () => {
  const env = { ...ok, CLICKHOUSE_READ: 'objects', STORAGE_READ_PREFIXES: ' /tern/b/ , a/b,tern/c' };
  expect(loadConfig(env).objectStorage!.readPrefixes).toEqual(['a/b', 'tern/b', 'tern/c']);
  expect(() => loadConfig({ ...ok, STORAGE_READ_PREFIXES: 'a,,b', CLICKHOUSE_READ: 'objects' })).toThrow(/STORAGE_READ_PREFIXES: must be prefixes/);
  expect(() => loadConfig({ ...ok, STORAGE_READ_PREFIXES: 'tern/b' })).toThrow(/STORAGE_READ_PREFIXES: is read only with CLICKHOUSE_READ=objects/);
});

test('CLICKHOUSE_CLUSTER: an identifier, and only beside CLICKHOUSE_URL', () => {
  expect(loadConfig({ CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_CLUSTER: 'tern_cluster' }).clickhouse?.cluster).toBe('tern_cluster');
  expect(loadConfig({ CLICKHOUSE_URL: 'http://ch:8123' }).clickhouse?.cluster).toBeUndefined();
  expect(() => loadConfig({ CLICKHOUSE_CLUSTER: 'tern_cluster' })).toThrow(/CLICKHOUSE_CLUSTER: needs CLICKHOUSE_URL/);
  expect(() => loadConfig({ CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_CLUSTER: 'a;DROP' })).toThrow(/CLICKHOUSE_CLUSTER: must be an identifier/);
});
