// Opens the ClickHouse client of CLICKHOUSE_URL through the official @clickhouse/client. A `chdb:` URL runs
// ClickHouse's engine in this process instead (chdb, the tests' engine): it is not a dependency (its engine is
// ~540 MB), so it is loaded from .cache/chdb, where the test command installs it on demand.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';

/** `cluster`: the cluster's name (CLICKHOUSE_CLUSTER) when the tables are sharded and replicated over one. */
export type ClickHouseOptions = { url: string; user: string; password: string; database: string; cluster?: string };

/** Where `npm test` installs chdb (scripts/test-prerequisites.ts): git-ignored, beside node_modules. */
export const CHDB_DIR = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../../.cache/chdb');
export const CHDB_VERSION = '3.4.0';

/**
 * Settings every statement runs with, so ClickHouse answers as SQL (and DuckDB) do: an aggregate over no
 * rows is NULL (not 0 or nan), an unmatched LEFT JOIN column is NULL (not the type's default), times are
 * UTC, a grouping set's other columns are NULL, and 64-bit integers come back as JSON numbers (visitor IDs are 53-bit).
 */
export const SESSION_SETTINGS = {
  aggregate_functions_null_for_empty: 1,
  join_use_nulls: 1,
  session_timezone: 'UTC',
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_decimals: 0,
  date_time_input_format: 'best_effort',
  count_distinct_implementation: 'uniqExact',
  /** GROUPING SETS leave the columns a set does not group by NULL, as in SQL. */
  group_by_use_nulls: 1,
  /** `x::DOUBLE` of a NULL stays NULL, as in SQL (ClickHouse would refuse the cast). */
  cast_keep_nullable: 1,
} as const;

/** True when chdb can be loaded (installed into .cache/chdb). */
export const chdbInstalled = () => existsSync(join(CHDB_DIR, 'node_modules/chdb/package.json'));

/** The chdb data directory of a `chdb:` URL: `chdb:` alone keeps it under DATA_DIR, `chdb:/abs/path` names it. */
const chdbPath = (url: string, dataDir: string) => (url.slice('chdb:'.length) || join(dataDir, 'chdb'));

export function openClickHouse(o: ClickHouseOptions, dataDir: string): ClickHouseClient {
  const common = { clickhouse_settings: SESSION_SETTINGS as Record<string, unknown>};
  if (!o.url.startsWith('chdb:')) {
    return createClient({ url: o.url, username: o.user, password: o.password, ...common } as Parameters<typeof createClient>[0]);
  }
  if (!chdbInstalled()) {
    throw new Error(`CLICKHOUSE_URL=chdb: needs chdb in ${CHDB_DIR}: run \`npm i --prefix .cache/chdb --no-save chdb@${CHDB_VERSION}\``);
  }
  const require = createRequire(join(CHDB_DIR, 'package.json'));
  const { createChdbConnection } = require('chdb/connection') as { createChdbConnection: (o: { path: string }) => unknown };
  return createClient({ connection: createChdbConnection({ path: chdbPath(o.url, dataDir) }), ...common } as Parameters<typeof createClient>[0]);
}
