// The SQL dialect a query is rendered in: what differs between the engines that can answer analytics
// (DuckDB over Parquet, ClickHouse over its MergeTree tables) — function names, array tests, integer and
// date math, reading a map, parameters — so metric, dimension and filter definitions stay one per name.
// The fragments are written once; where engines differ they call the scope's dialect.
import { frag, sql, type Fragment } from '../../storage/sql.ts';
import type { Param } from '../../storage/database.ts';
import type { Table } from '../../storage/parquet-layout.ts';

export type DialectName = 'duckdb' | 'clickhouse';

export type Dialect = {
  name: DialectName;
  /** A UTC instant given as ISO text, as a timestamp value. */
  timestamp(iso: string): Fragment;
  /** `col` is one of `values` (one bound list). */
  inList(col: Fragment, values: string[]): Fragment;
  /** The value of `key` in the event's property map, NULL when the event has none. */
  prop(key: string): Fragment;
  /** The event carries properties: a cheap test to put before reading the map (which costs more to read than the test). */
  hasProps(): Fragment;
  /** The keys of the event's property map, as a list (event:props explodes it). */
  propKeys(): Fragment;
  /** Substring and regular-expression (RE2, partial and full match) tests. */
  contains(haystack: Fragment, needle: string): Fragment;
  matches(subject: Fragment, pattern: string): Fragment;
  fullMatch(subject: Fragment, pattern: string): Fragment;
  /** LIKE with backslash as the escape character. */
  like(subject: Fragment, pattern: string): Fragment;
  /** A UTC timestamp column as integer microseconds since 1970. */
  epochMicros(col: Fragment): Fragment;
  /** A UTC timestamp column as integer milliseconds since 1970. */
  epochMillis(col: Fragment): Fragment;
  /** Bitwise AND and shifts of integers (the funnel's packed step events). */
  bitAnd(a: string, b: string): string;
  shiftRight(a: string, n: number): string;
  shiftLeft(a: string, n: number): string;
  /** The exact median (interpolated between the two middle values) and the value of `x` at the maximum of `by`. */
  median(x: string): string;
  argMax(x: string, by: string): string;
  /** A CTE's head (`name AS`), asking the engine to compute it once where it can be told so. */
  cteOnce(name: string): string;
  /** A timestamp column as the answer shows it: ISO 8601 UTC with milliseconds (DuckDB's rows are converted so already). */
  isoTime(col: Fragment): Fragment;
  /** A map column as JSON text. */
  jsonText(col: Fragment): Fragment;
  /** Integer division (both sides integers, non-negative here). */
  intDiv(a: Fragment, b: Fragment): Fragment;
  /** Microseconds of wall-clock time → the start of its month, in microseconds. */
  monthStartMicros(micros: Fragment): Fragment;
  /** Microseconds of wall-clock time formatted with a strftime pattern (%Y %m %d %H only). */
  formatMicros(micros: Fragment, format: string): Fragment;
  /** A NULL of the text type. */
  nullText(): Fragment;
  /** One row per element of a list expression (a set-returning function in the SELECT list). */
  explode(list: Fragment): Fragment;
  /** `*` without the named columns. */
  starExcept(columns: string[]): Fragment;
  /** The engine's own stored table of one site, over a UTC range (the planner decides whether it reads it). */
  stored(tbl: Table, siteId: string, time: string, range?: { fromUtc: string; toUtc: string }): Fragment;
};

/** DuckDB: the engine Tern embeds; its text is what the fragments were first written in. */
export const DUCKDB: Dialect = {
  name: 'duckdb',
  timestamp: (iso) => sql`${iso}::TIMESTAMP`,
  inList: (col, values) => sql`${col} = ANY(${values}::VARCHAR[])`,
  prop: (key) => sql`props[${key}]`,
  hasProps: () => frag('props IS NOT NULL'),
  propKeys: () => frag('map_keys(props)'),
  contains: (h, n) => sql`contains(${h}, ${n})`,
  matches: (s, p) => sql`regexp_matches(${s}, ${p})`,
  fullMatch: (s, p) => sql`regexp_full_match(${s}, ${p})`,
  like: (s, p) => sql`${s} LIKE ${p} ESCAPE '\\'`,
  epochMicros: (c) => sql`epoch_us(${c})`,
  intDiv: (a, b) => sql`(${a} // ${b})`,
  epochMillis: (c) => sql`epoch_ms(${c})`,
  isoTime: (c) => c,
  jsonText: (c) => sql`to_json(${c})::VARCHAR`,
  bitAnd: (a, b) => `(${a} & ${b})`,
  shiftRight: (a, n) => `(${a} >> ${n})`,
  shiftLeft: (a, n) => `(${a} << ${n})`,
  median: (x) => `median(${x})`,
  argMax: (x, by) => `arg_max(${x}, ${by})`,
  cteOnce: (name) => `${name} AS MATERIALIZED`,
  monthStartMicros: (us) => sql`epoch_us(date_trunc('month', make_timestamp(${us})))`,
  formatMicros: (us, f) => sql`strftime(make_timestamp(${us}), ${f})`,
  nullText: () => frag('NULL::VARCHAR'),
  explode: (list) => sql`unnest(${list})`,
  starExcept: (cols) => frag(`* EXCLUDE (${cols.join(', ')})`),
  stored: () => {
    throw new Error('DuckDB reads stored rows through tableSource() (plan/read.ts)');
  },
};

/** The dialect of a scope (DuckDB unless the engine set another). */
export const dialectOf = (s: { dialect?: Dialect }): Dialect => s.dialect ?? DUCKDB;

/** What runs a rendered statement: DuckDB's Database, or ClickHouse's engine (query/clickhouse-engine.ts). */
export type Runner = { query<T extends Record<string, any> = Record<string, any>>(sql: string, params?: Param[]): Promise<T[]> };

/** The engine answering analytics: a runner and the dialect its SQL is written in. */
export type Engine = Runner & { dialect: Dialect };

/** DuckDB's database as the analytics engine (the default). */
export const duckdbEngine = (db: Runner): Engine => ({ dialect: DUCKDB, query: (text, params) => db.query(text, params) });
