// The ClickHouse dialect (ANALYTICS_ENGINE=clickhouse): ClickHouse's functions for what DuckDB spells
// otherwise, and the `?` placeholders of a composed fragment rendered as typed `{pN:Type}` parameters.
// FILTER (WHERE …) needs nothing here: ClickHouse rewrites it to its -If combinators itself.
import { frag, ident, join, sql, type Fragment } from '../../storage/sql.ts';
import type { Param } from '../../storage/database.ts';
import { TIME_COL, type Table } from '../../storage/parquet-layout.ts';
import type { Dialect } from './dialect.ts';
import { liveFiles } from '../../storage/clickhouse/schema.ts';

/** strftime's patterns Tern uses, which ClickHouse's formatDateTime spells the same (%Y %m %d %H). */
const FORMATS = /^(%[YmdH]|[-: 0-9])*$/;

/** Where ClickHouse reads Parquet objects instead of its tables (CLICKHOUSE_READ=objects): the listed files' URLs. */
export type ObjectReads = {
  urls(tbl: Table, siteId: string, range?: { fromUtc: string; toUtc: string }): string[];
  credentials: { accessKeyId: string; secretAccessKey: string };
};

export function clickhouseDialect(database: string, objects?: ObjectReads): Dialect {
  const db = ident(database);
  const timestamp = (iso: string) => sql`parseDateTime64BestEffort(${iso}, 6, 'UTC')`;
  return {
    name: 'clickhouse',
    timestamp,
    inList: (col, values) => sql`has(${values}, ${col})`,
    prop: (key) => sql`if(mapContains(props, ${key}), props[${key}], NULL)`,
    hasProps: () => frag('notEmpty(props)'),
    propKeys: () => frag('mapKeys(props)'),
    contains: (h, n) => sql`(position(${h}, ${n}) > 0)`,
    matches: (s, p) => sql`match(${s}, ${p})`,
    fullMatch: (s, p) => sql`match(${s}, concat('^(?:', ${p}, ')$'))`,
    like: (s, p) => sql`${s} LIKE ${p}`,
    epochMicros: (c) => sql`toUnixTimestamp64Micro(${c})`,
    intDiv: (a, b) => sql`intDiv(${a}, ${b})`,
    epochMillis: (c) => sql`toUnixTimestamp64Milli(${c})`,
    isoTime: (c) => sql`concat(formatDateTime(${c}, '%Y-%m-%dT%H:%i:%S'), '.', leftPad(toString(toUnixTimestamp64Milli(${c}) % 1000), 3, '0'), 'Z')`,
    jsonText: (c) => sql`toJSONString(${c})`,
    bitAnd: (a, b) => `bitAnd(${a}, ${b})`,
    shiftRight: (a, n) => `bitShiftRight(${a}, ${n})`,
    shiftLeft: (a, n) => `bitShiftLeft(${a}, ${n})`,
    median: (x) => `quantileExactInclusive(0.5)(${x})`,
    argMax: (x, by) => `argMax(${x}, ${by})`,
    cteOnce: (name) => `${name} AS`,
    monthStartMicros: (us) => sql`toUnixTimestamp64Micro(toDateTime64(toStartOfMonth(fromUnixTimestamp64Micro(${us}, 'UTC')), 6, 'UTC'))`,
    formatMicros: (us, f) => {
      if (!FORMATS.test(f)) throw new Error(`no ClickHouse format for ${f}`);
      return sql`formatDateTime(fromUnixTimestamp64Micro(${us}, 'UTC'), ${frag(`'${f}'`)})`;
    },
    nullText: () => frag('CAST(NULL, \'Nullable(String)\')'),
    explode: (list) => sql`arrayJoin(${list})`,
    starExcept: (cols) => frag(`* EXCEPT (${cols.join(', ')})`),
    stored: (tbl, siteId, time, range) => {
      const t = ident(TIME_COL[tbl] ?? time);
      const inRange = range ? sql` AND ${t} >= ${timestamp(range.fromUtc)} AND ${t} < ${timestamp(range.toUtc)}` : frag('');
      // Only live files' rows: a merge's new file and the files it replaces are never counted together.
      if (!objects) return sql`(SELECT * FROM ${db}.${ident(tbl)} WHERE site_id = ${siteId}${inRange} AND ${frag(liveFiles(database))})`;
      // The site's listed objects overlapping the range, each read by s3() (URL and credentials bound);
      // none listed: the table's shape, without rows.
      const { accessKeyId, secretAccessKey } = objects.credentials;
      const reads = objects.urls(tbl, siteId, range).map((u) => sql`SELECT * FROM s3(${u}, ${accessKeyId}, ${secretAccessKey}, 'Parquet')`);
      if (!reads.length) return sql`(SELECT * EXCEPT (_file) FROM ${db}.${ident(tbl)} WHERE false)`;
      return sql`(SELECT * FROM (${join(reads, ' UNION ALL ')}) WHERE site_id = ${siteId}${inRange})`;
    },
  };
}

/** A bound value's ClickHouse type (arrays are lists of names; numbers 64-bit). */
function typeOf(p: Param): string {
  if (p === null || p === undefined) return 'Nullable(String)';
  if (Array.isArray(p)) return 'Array(String)';
  if (typeof p === 'boolean') return 'Bool';
  if (typeof p === 'bigint') return 'Int64';
  if (typeof p === 'number') return Number.isInteger(p) ? 'Int64' : 'Float64';
  return 'String';
}

/**
 * The statement with its `?` placeholders (outside quoted text) as `{pN:Type}` and the values by name.
 * The fragments never splice a value into the text, so every `?` outside quotes is a placeholder.
 */
export function renderClickHouse(text: string, params: Param[]): { query: string; query_params: Record<string, unknown> } {
  const query_params: Record<string, unknown> = {};
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote && text[i - 1] !== '\\') quote = null;
      out += c;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
      out += c;
    } else if (c === '?') {
      if (n >= params.length) throw new Error('more placeholders than parameters');
      const p = params[n]!;
      query_params[`p${n}`] = typeof p === 'bigint' ? p.toString() : p;
      out += `{p${n}:${typeOf(p)}}`;
      n++;
    } else out += c;
  }
  if (n !== params.length) throw new Error(`${params.length} parameters for ${n} placeholders`);
  return { query: out, query_params };
}
