// Tern's ClickHouse tables: events and visits as MergeTree (partitioned by month, ordered by site and time,
// Plausible's layout) with the columns of DuckDB's tables, created and migrated at start; the list of Parquet
// files they hold; and the documented cluster layout (ReplicatedMergeTree shards behind a Distributed table).
import type { ClickHouseClient } from '@clickhouse/client';
import type { Database } from '../database.ts';
import { TIME_COL, type Table } from '../parquet-layout.ts';

export const TABLES: Table[] = ['events', 'visits'];
/** Which registered Parquet file a row came from (storage/clickhouse/mirror.ts deletes by it). */
export const FILE_COL = '_file';
/**
 * The files whose rows the tables hold, each `live` (its rows count) or not (being loaded, or merged away and
 * its rows about to be deleted). The last row inserted for a path wins (ReplacingMergeTree, read with FINAL), so
 * one insert turns a merge's new file on and its old files off at the same instant.
 */
export const FILES_TABLE = 'tern_files';
const FILES_COLUMNS = '(path String, tbl LowCardinality(String), live UInt8 DEFAULT 1)';
/** The condition a read of a stored table adds: only the rows of live files count. */
export const liveFiles = (database: string) => `${FILE_COL} IN (SELECT path FROM ${identifier(database)}.${FILES_TABLE} FINAL WHERE live = 1)`;

/** `name` checked as a ClickHouse identifier: it is spliced into DDL. */
export function identifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`CLICKHOUSE_DATABASE must be an identifier (letters, digits, _): ${name}`);
  return name;
}

/** DuckDB's type of a column as ClickHouse's (timestamps are UTC microseconds; a nullable column stays nullable). */
function chType(duck: string, nullable: boolean): string {
  const t = duck.toUpperCase();
  if (t.startsWith('MAP(')) return 'Map(String, String)';
  const base = t === 'TIMESTAMP' ? "DateTime64(6, 'UTC')"
    : t === 'VARCHAR' ? 'String'
    : t === 'BIGINT' ? 'Int64'
    : t === 'INTEGER' ? 'Int32'
    : t === 'DOUBLE' ? 'Float64'
    : t === 'BOOLEAN' ? 'Bool'
    : /^DECIMAL\(\d+,\s*\d+\)$/.test(t) ? t.replace('DECIMAL', 'Decimal').replace(/\s/g, '')
    : undefined;
  if (!base) throw new Error(`no ClickHouse type for DuckDB's ${duck}`);
  return nullable ? `Nullable(${base})` : base;
}

export type Column = { name: string; type: string };

/** The ClickHouse columns of `tbl`, from DuckDB's own table: one definition of the stored columns. */
export async function columnsOf(db: Database, tbl: Table): Promise<Column[]> {
  const rows = await db.query<{ column_name: string; column_type: string; null: string }>(`DESCRIBE ${tbl}`);
  return [...rows.map((r) => ({ name: r.column_name, type: chType(r.column_type, r.null === 'YES') })), { name: FILE_COL, type: 'LowCardinality(String)' }];
}

/** One table's DDL for `engine` (the single-node MergeTree or a replicated one). */
export function tableDdl(name: string, tbl: Table, cols: Column[], engine = 'MergeTree', onCluster = ''): string {
  const time = TIME_COL[tbl];
  return `CREATE TABLE IF NOT EXISTS ${name}${onCluster} (${cols.map((c) => `\`${c.name}\` ${c.type}`).join(', ')})
ENGINE = ${engine} PARTITION BY toYYYYMM(${time}) ORDER BY (site_id, ${time})
SETTINGS non_replicated_deduplication_window = 10000`;
}

/** The stored columns of both tables, from DuckDB's own tables. */
async function storedColumns(db: Database): Promise<Record<Table, Column[]>> {
  return { events: await columnsOf(db, 'events'), visits: await columnsOf(db, 'visits') };
}

/**
 * What creates or migrates the tables: on one server MergeTree tables; on a cluster (CLICKHOUSE_CLUSTER) the
 * cluster layout below, every statement ON CLUSTER. New columns are added to both a cluster's shard tables and
 * the Distributed tables over them.
 */
export function schemaStatements(cols: Record<Table, Column[]>, database: string, cluster?: string): string[] {
  const d = identifier(database);
  const on = cluster ? ` ON CLUSTER ${identifier(cluster)}` : '';
  const out = cluster ? clusterStatements(cols, d, identifier(cluster)) : [
    `CREATE DATABASE IF NOT EXISTS ${d}`,
    ...TABLES.map((tbl) => tableDdl(`${d}.${tbl}`, tbl, cols[tbl])),
    `CREATE TABLE IF NOT EXISTS ${d}.${FILES_TABLE} ${FILES_COLUMNS} ENGINE = ReplacingMergeTree ORDER BY path`,
  ];
  for (const tbl of TABLES) {
    for (const name of cluster ? [`${tbl}_local`, tbl] : [tbl]) {
      for (const c of cols[tbl]) out.push(`ALTER TABLE ${d}.${name}${on} ADD COLUMN IF NOT EXISTS \`${c.name}\` ${c.type}`);
    }
  }
  // Files listed before `live` existed were all live.
  out.push(`ALTER TABLE ${d}.${FILES_TABLE}${on} ADD COLUMN IF NOT EXISTS live UInt8 DEFAULT 1`);
  return out;
}

/** Creates the database and tables when missing and adds columns DuckDB's tables gained since. */
export async function migrateClickHouse(ch: ClickHouseClient, db: Database, database: string, cluster?: string) {
  for (const query of schemaStatements(await storedColumns(db), database, cluster)) await ch.command({ query });
}

/**
 * Deletes the rows of files (bound as {paths:Array(String)}). On a cluster a Distributed table takes no DELETE:
 * it runs on every shard's table.
 */
export const deleteRowsSql = (database: string, tbl: Table, cluster?: string) =>
  `DELETE FROM ${identifier(database)}.${cluster ? `${tbl}_local ON CLUSTER ${identifier(cluster)}` : tbl} WHERE ${FILE_COL} IN {paths:Array(String)}`;

/**
 * The cluster layout (docs/scaling.md): each table as a ReplicatedMergeTree on every shard (`<table>_local`)
 * and a Distributed table of the same name over them, sharded by visitor so a visitor's events and visits
 * meet on one shard. Tern runs them itself when CLICKHOUSE_CLUSTER names the cluster; scripts/clickhouse-cluster-ddl.ts
 * prints them for an operator who creates the tables first.
 */
export async function clusterDdl(db: Database, database: string, cluster: string): Promise<string[]> {
  return clusterStatements(await storedColumns(db), identifier(database), identifier(cluster));
}

function clusterStatements(cols: Record<Table, Column[]>, d: string, c: string): string[] {
  const out = [`CREATE DATABASE IF NOT EXISTS ${d} ON CLUSTER ${c}`];
  for (const tbl of TABLES) {
    const engine = `ReplicatedMergeTree('/clickhouse/tables/{shard}/${d}/${tbl}_local', '{replica}')`;
    out.push(tableDdl(`${d}.${tbl}_local`, tbl, cols[tbl], engine, ` ON CLUSTER ${c}`).replace(/\nSETTINGS .*$/, ''));
    out.push(`CREATE TABLE IF NOT EXISTS ${d}.${tbl} ON CLUSTER ${c} AS ${d}.${tbl}_local ENGINE = Distributed(${c}, ${d}, ${tbl}_local, intHash64(visitor_id))`);
  }
  out.push(`CREATE TABLE IF NOT EXISTS ${d}.${FILES_TABLE} ON CLUSTER ${c} ${FILES_COLUMNS} ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/${d}/${FILES_TABLE}', '{replica}') ORDER BY path`);
  return out;
}
