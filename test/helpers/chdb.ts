// chdb (ClickHouse's engine in process) for the ClickHouse tests: whether `npm test`'s pretest could install
// it, the one line a skipping test prints, and a client over a chdb data directory for checks in the test.
import { chdbInstalled, openClickHouse } from '../../src/storage/clickhouse/client.ts';

export const CHDB = chdbInstalled();

/** Call at the top of a ClickHouse test file: says once why its tests skip. */
export function sayIfNoChdb(what: string) {
  if (!CHDB) console.warn(`skipping ${what}: chdb is not installed in .cache/chdb (npm i --prefix .cache/chdb --no-save chdb@3.4.0)`);
}

/** A client over the chdb data directory `path` (one process at a time may open it). */
export const chdbClient = (path: string) => openClickHouse({ url: `chdb:${path}`, user: 'default', password: '', database: 'tern' }, path);

export async function chRows<T = Record<string, unknown>>(client: ReturnType<typeof chdbClient>, query: string, query_params: Record<string, unknown> = {}): Promise<T[]> {
  return (await client.query({ query, query_params, format: 'JSONEachRow' })).json<T>();
}
