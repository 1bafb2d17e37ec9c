// Environment → typed, validated configuration (contract §1). The only place that reads env vars.
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  TRUST_PROXY: bool.default(false),
  ALLOW_REGISTRATION: bool.default(true),
  DEFAULT_PLAN: z.enum(['maker', 'startup', 'agency']).default('startup'),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(5).max(50).default(20),
  DUCKDB_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, 'must be a size such as 512MB or 2GB')
    .default('2GB'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  trustProxy: boolean;
  allowRegistration: boolean;
  defaultPlan: 'maker' | 'startup' | 'agency';
  authRateLimit: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  duckdbMemoryLimit: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const raw = Object.fromEntries(
    Object.keys(ConfigSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: c.DATA_DIR,
    trustProxy: c.TRUST_PROXY,
    allowRegistration: c.ALLOW_REGISTRATION,
    defaultPlan: c.DEFAULT_PLAN,
    authRateLimit: c.AUTH_RATE_LIMIT,
    logLevel: c.LOG_LEVEL,
    duckdbMemoryLimit: c.DUCKDB_MEMORY_LIMIT,
  };
}
