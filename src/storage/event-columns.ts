// The columns of a stored event, owned by storage: the events table, the log lines that feed it and the
// Parquet files it is compacted into all take their columns from here.

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
  ['order_id', 'VARCHAR'], ['props', 'MAP(VARCHAR, VARCHAR)'], ['engaged_path', 'VARCHAR'],
  ['engaged_hostname', 'VARCHAR'],
] as const;

export type EventColumn = (typeof EVENT_COLUMNS)[number][0];

export const EVENT_COLUMN_LIST = EVENT_COLUMNS.map(([c]) => c).join(', ');
