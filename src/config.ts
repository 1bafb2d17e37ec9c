// Environment → typed, validated configuration (contract §1). The only place that reads env vars.
import { z } from 'zod';
import { PlanSchema } from './organizations/model.ts';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  TRUST_PROXY: bool.default(false),
  ALLOW_REGISTRATION: bool.default(true),
  DEFAULT_PLAN: PlanSchema.default('startup'),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(5).max(50).default(20),
  DUCKDB_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, 'must be a size such as 512MB or 2GB')
    .default('2GB'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  INGEST_LOAD_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Seconds a connection may stay quiet (between requests, or sending nothing) before it is closed; not while a request is answered. */
  HTTP_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).max(255).default(30),
  /** Tests only: SIGUSR2 makes the next commit invalidate the DuckDB instance for real (Database.armCheckpointFault); SIGUSR1 seals every visit now (server.ts). */
  TERN_TEST_HOOKS: bool.default(false),
  /** Tests only: a step (e.g. erase:after-write) where the server waits forever, so a test can kill it there; step@ms waits ms. */
  TERN_TEST_PAUSE_AT: z.string().optional(),
  /** Tests only: every analytics statement waits this long between planning and running (query/run.ts). */
  TERN_TEST_STATEMENT_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** Tests only: hot events (of large imports) that make compaction flush them, instead of a million (storage/hot-events.ts). */
  TERN_TEST_HOT_FLUSH_ROWS: z.coerce.number().int().min(1).optional(),
  /** Tests only: compaction's interval; a round waits for imports quiet for twice it, at most ten times it (storage/import-hold.ts). */
  TERN_TEST_COMPACTION_MS: z.coerce.number().int().min(100).optional(),
  /** Tests only: hot visits at which a round held back for imports runs anyway, instead of 2M (storage/import-hold.ts). */
  TERN_TEST_HOLD_MAX_VISITS: z.coerce.number().int().min(1).optional(),
  /** Metadata in PostgreSQL, shared by every node (storage/postgres.ts); unset, it stays in DuckDB under DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a PostgreSQL URL such as postgres://user:password@host:5432/tern')
    .optional(),
  /** Object storage (storage/object-mirror.ts): s3://bucket/prefix; unset, Parquet files stay local only. */
  STORAGE_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^\s]*)?$/, 'must be s3://bucket or s3://bucket/prefix')
    .optional(),
  STORAGE_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:9000' })
    .refine((u) => !URL.canParse(u) || !/^[a-z]+:\/\/[^/]*@/i.test(u), 'must not carry credentials (use STORAGE_ACCESS_KEY_ID / STORAGE_SECRET_ACCESS_KEY)')
    .optional(),
  STORAGE_REGION: z.string().regex(/^[a-z0-9-]+$/, 'must be a region such as us-east-1').default('us-east-1'),
  STORAGE_ACCESS_KEY_ID: z.string().optional(),
  STORAGE_SECRET_ACCESS_KEY: z.string().optional(),
  STORAGE_FORCE_PATH_STYLE: bool.optional(),
  /**
   * With CLICKHOUSE_READ=objects and several nodes: every node's prefix in STORAGE_URL's bucket, comma-separated
   * (e.g. tern/node-a,tern/node-b). Each node writes only its own prefix; queries read the union of all their
   * manifests. Unset: only this node's prefix.
   */
  STORAGE_READ_PREFIXES: z
    .string()
    .regex(/^\s*[^\s,]+(\s*,\s*[^\s,]+)*\s*$/, 'must be prefixes separated by commas, such as tern/node-a,tern/node-b')
    .optional(),
  /** How long an object stays in the bucket after the manifest stopped listing it (readers of the previous one). */
  STORAGE_DELETE_GRACE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Which engine answers analytics: DuckDB over DATA_DIR (default) or ClickHouse (CLICKHOUSE_URL), loaded from the same Parquet batches. */
  ANALYTICS_ENGINE: z.enum(['duckdb', 'clickhouse']).default('duckdb'),
  /** http(s)://host:8123 of a ClickHouse server, or chdb: / chdb:/path for the engine in process (tests; chdb installed into .cache/chdb). */
  CLICKHOUSE_URL: z
    .string()
    .regex(/^(https?:\/\/[^\s]+|chdb:(\/[^\s]*)?)$/, 'must be http(s)://host:port or chdb: (in process)')
    .refine((u) => !/^[a-z]+:\/\/[^/]*@/i.test(u), 'must not carry credentials (use CLICKHOUSE_USER / CLICKHOUSE_PASSWORD)')
    .optional(),
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  /** tables: ClickHouse's own tables (loaded by Tern); objects: the Parquet objects in STORAGE_URL, read with s3(). */
  CLICKHOUSE_READ: z.enum(['tables', 'objects']).default('tables'),
  CLICKHOUSE_DATABASE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an identifier (letters, digits, _)').default('tern'),
  /** The cluster (remote_servers) the tables are sharded over: Tern then creates and migrates them ON CLUSTER. */
  CLICKHOUSE_CLUSTER: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an identifier (letters, digits, _)').optional(),
}).superRefine((c, ctx) => {
  if (c.CLICKHOUSE_READ === 'objects' && !c.STORAGE_URL) ctx.addIssue({ code: 'custom', path: ['CLICKHOUSE_READ'], message: 'objects needs STORAGE_URL' });
  if (c.ANALYTICS_ENGINE === 'clickhouse' && !c.CLICKHOUSE_URL) ctx.addIssue({ code: 'custom', path: ['CLICKHOUSE_URL'], message: 'is required with ANALYTICS_ENGINE=clickhouse' });
  if (c.CLICKHOUSE_CLUSTER && !c.CLICKHOUSE_URL) ctx.addIssue({ code: 'custom', path: ['CLICKHOUSE_CLUSTER'], message: 'needs CLICKHOUSE_URL' });
  if (c.STORAGE_READ_PREFIXES && c.CLICKHOUSE_READ !== 'objects') ctx.addIssue({ code: 'custom', path: ['STORAGE_READ_PREFIXES'], message: 'is read only with CLICKHOUSE_READ=objects' });
  if (!c.STORAGE_URL) return;
  for (const k of ['STORAGE_ACCESS_KEY_ID', 'STORAGE_SECRET_ACCESS_KEY'] as const) {
    if (!c[k]) ctx.addIssue({ code: 'custom', path: [k], message: 'is required with STORAGE_URL' });
  }
});

/** STORAGE_URL and its companions, or undefined when objects are not stored (the default). */
function objectStorage(c: z.output<typeof EnvSchema>) {
  if (!c.STORAGE_URL) return undefined;
  const [, bucket, prefix] = c.STORAGE_URL.match(/^s3:\/\/([^/]+)\/?(.*)$/)!;
  const trim = (p: string) => p.trim().replace(/^\/+|\/+$/g, '');
  const own = trim(prefix!);
  return {
    bucket: bucket!,
    prefix: own,
    /** This node's prefix first, then the other nodes' (STORAGE_READ_PREFIXES), each once. */
    readPrefixes: [...new Set([own, ...(c.STORAGE_READ_PREFIXES ?? '').split(',').map(trim).filter(Boolean)])],
    endpoint: c.STORAGE_ENDPOINT,
    region: c.STORAGE_REGION,
    accessKeyId: c.STORAGE_ACCESS_KEY_ID!,
    secretAccessKey: c.STORAGE_SECRET_ACCESS_KEY!,
    // MinIO, s3rver and most self-hosted stores answer on one host; AWS prefers the bucket in the host name.
    forcePathStyle: c.STORAGE_FORCE_PATH_STYLE ?? Boolean(c.STORAGE_ENDPOINT),
    deleteGraceMs: c.STORAGE_DELETE_GRACE_SECONDS * 1000,
  };
}

// The type follows from the schema, so a new variable is declared in one place.
const ConfigSchema = EnvSchema.transform((c) => ({
  port: c.PORT,
  host: c.HOST,
  dataDir: c.DATA_DIR,
  trustProxy: c.TRUST_PROXY,
  allowRegistration: c.ALLOW_REGISTRATION,
  defaultPlan: c.DEFAULT_PLAN,
  authRateLimit: c.AUTH_RATE_LIMIT,
  logLevel: c.LOG_LEVEL,
  duckdbMemoryLimit: c.DUCKDB_MEMORY_LIMIT,
  ingestLoadIntervalMs: c.INGEST_LOAD_INTERVAL_MS,
  httpIdleTimeoutS: c.HTTP_IDLE_TIMEOUT_S,
  testHooks: c.TERN_TEST_HOOKS,
  testPauseAt: c.TERN_TEST_PAUSE_AT,
  testHotFlushRows: c.TERN_TEST_HOT_FLUSH_ROWS,
  testCompaction: { intervalMs: c.TERN_TEST_COMPACTION_MS, holdMaxVisits: c.TERN_TEST_HOLD_MAX_VISITS },
  testStatementDelayMs: c.TERN_TEST_STATEMENT_DELAY_MS,
  objectStorage: objectStorage(c),
  analyticsEngine: c.ANALYTICS_ENGINE,
  clickhouse: c.CLICKHOUSE_URL
    ? { url: c.CLICKHOUSE_URL, user: c.CLICKHOUSE_USER, password: c.CLICKHOUSE_PASSWORD, database: c.CLICKHOUSE_DATABASE, cluster: c.CLICKHOUSE_CLUSTER, read: c.CLICKHOUSE_READ }
    : undefined,
  databaseUrl: c.DATABASE_URL,
}));

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means unset (compose files often write FOO= for "default").
  const raw = Object.fromEntries(Object.keys(EnvSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
