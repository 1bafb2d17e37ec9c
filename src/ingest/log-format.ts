// The NDJSON line format of the durable log (and of import staging files): one stored event per line.
// The same column list types the DuckDB read_json() that bulk-loads the lines, so the two cannot drift.

/** Columns of the events table, in table order, with their DuckDB types. */
export const EVENT_COLUMNS = [
  ['ts', 'TIMESTAMP'], ['site_id', 'VARCHAR'], ['visitor_id', 'BIGINT'], ['visit_id', 'BIGINT'],
  ['event_type', 'VARCHAR'], ['event_name', 'VARCHAR'], ['url', 'VARCHAR'], ['hostname', 'VARCHAR'],
  ['path', 'VARCHAR'], ['title', 'VARCHAR'], ['referrer', 'VARCHAR'], ['source', 'VARCHAR'],
  ['channel', 'VARCHAR'], ['utm_source', 'VARCHAR'], ['utm_medium', 'VARCHAR'], ['utm_campaign', 'VARCHAR'],
  ['utm_term', 'VARCHAR'], ['utm_content', 'VARCHAR'], ['country', 'VARCHAR'], ['region', 'VARCHAR'],
  ['city', 'VARCHAR'], ['browser', 'VARCHAR'], ['browser_version', 'VARCHAR'], ['os', 'VARCHAR'],
  ['os_version', 'VARCHAR'], ['device', 'VARCHAR'], ['screen', 'VARCHAR'], ['session_id', 'VARCHAR'],
  ['time_on_page', 'DOUBLE'], ['scroll_depth', 'DOUBLE'], ['revenue', 'DECIMAL(18, 4)'], ['currency', 'VARCHAR'],
  ['order_id', 'VARCHAR'], ['props', 'MAP(VARCHAR, VARCHAR)'],
] as const;

/** Log-only columns: the tracker's visitor_uid feeds the visitor profile, not the events table. */
const LOG_ONLY_COLUMNS = [['uid', 'VARCHAR']] as const;

export type EventColumn = (typeof EVENT_COLUMNS)[number][0];
/** One log line; ts is an ISO string, visit_id is null in import staging (assigned in SQL). */
export type LogRow = { [K in EventColumn]: any } & { uid: string | null };

/**
 * One NDJSON line for a row, null fields left out (read_json reads an absent key as NULL): a third
 * fewer bytes to write, sync and parse. Every nullable key follows a comma, and inside a JSON string
 * a quote is always escaped, so `,"key":null` only ever matches a whole null member.
 */
export const toLine = (row: LogRow) => JSON.stringify(row).replace(NULL_MEMBER, '');
const NULL_MEMBER = /,"[a-z_]+":null/g;

export const EVENT_COLUMN_LIST = EVENT_COLUMNS.map(([c]) => c).join(', ');

const columnsStruct = [...EVENT_COLUMNS, ...LOG_ONLY_COLUMNS].map(([c, t]) => `${c}: '${t}'`).join(', ');

/** A FROM-able read_json over bound file paths (one `?`, a VARCHAR[] list). */
export const readLogSql = `read_json(?::VARCHAR[], format = 'newline_delimited', columns = {${columnsStruct}})`;
