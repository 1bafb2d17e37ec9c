// The columns of an export, per table: name, SQL over the stored row, type, and what it means. One list feeds
// the SELECT of every format, the OpenAPI description and the docs, so they cannot drift.
import { neutraliseSql } from '../http/csv.ts';

export type ExportTable = 'events' | 'visits';
export type ExportFormat = 'parquet' | 'csv' | 'ndjson';

type Kind = 'text' | 'timestamp' | 'int' | 'decimal' | 'double' | 'bool' | 'uuid' | 'map';
type Column = { name: string; sql: string; kind: Kind; doc: string };

const text = (name: string, doc: string, sql = name): Column => ({ name, sql, kind: 'text', doc });
/** The profile id the visitors API uses (md5 of site and internal id, as the loader names profiles). */
const VISITOR: Column = { name: 'visitor_id', sql: `md5(site_id || ':' || visitor_id)::UUID`, kind: 'uuid', doc: 'Visitor profile id (as in the visitors API)' };
const VISIT: Column = { name: 'visit_id', sql: 'visit_id', kind: 'int', doc: 'Visit id (joins events to visits)' };
const ACQUISITION = [
  text('referrer', 'Referrer URL'), text('source', 'Traffic source'), text('channel', 'Channel'),
  ...['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'].map((c) => text(c, c.replace('_', ' '))),
];
const CLIENT = [
  text('country', 'ISO 3166-1 alpha-2'), text('region', 'ISO 3166-2'), text('city', 'City'),
  text('browser', 'Browser'), text('browser_version', 'Browser version'), text('os', 'Operating system'), text('os_version', 'OS version'),
  text('device', 'desktop, mobile or tablet'), text('screen', 'Screen size class'),
];

export const EXPORT_COLUMNS: Record<ExportTable, Column[]> = {
  events: [
    { name: 'timestamp', sql: 'ts', kind: 'timestamp', doc: 'When the event happened (UTC)' },
    VISITOR, VISIT,
    text('event_type', 'pageview, custom, purchase…'), text('event_name', 'Custom event name'),
    text('url', 'Full URL'), text('hostname', 'Host name'), text('path', 'Path'), text('title', 'Page title'),
    ...ACQUISITION, ...CLIENT,
    text('session_id', 'Session id sent by the client'),
    { name: 'time_on_page', sql: 'time_on_page', kind: 'double', doc: 'Seconds on the previous page (pageviews)' },
    { name: 'scroll_depth', sql: 'scroll_depth', kind: 'double', doc: 'Scroll depth 0–100 of the previous page' },
    { name: 'revenue', sql: 'revenue', kind: 'decimal', doc: 'Revenue, DECIMAL(18,4)' },
    text('currency', 'ISO 4217 code of revenue'), text('order_id', 'Order id (a purchase counts once)'),
    { name: 'properties', sql: 'props', kind: 'map', doc: 'Custom properties (string → string)' },
  ],
  visits: [
    VISIT, VISITOR,
    { name: 'started_at', sql: 'start_ts', kind: 'timestamp', doc: 'First event of the visit (UTC)' },
    { name: 'ended_at', sql: 'end_ts', kind: 'timestamp', doc: 'Last event of the visit (UTC)' },
    text('entry_page', 'First pageview path'), text('exit_page', 'Last pageview path'), text('hostname', 'Host name'),
    ...ACQUISITION, ...CLIENT,
    { name: 'pageviews', sql: 'pageviews', kind: 'int', doc: 'Pageviews in the visit' },
    { name: 'events', sql: 'events', kind: 'int', doc: 'Events in the visit (pageviews included)' },
    { name: 'duration', sql: 'duration', kind: 'int', doc: 'Seconds from first to last event' },
    { name: 'is_bounce', sql: 'is_bounce', kind: 'bool', doc: 'One pageview and nothing else' },
    { name: 'revenue', sql: 'revenue', kind: 'decimal', doc: 'Revenue of the visit, DECIMAL(18,4)' },
  ],
};

/** ISO 8601 with milliseconds and Z, as every JSON answer of the API prints times. */
const iso = (expr: string) => `strftime(${expr}, '%Y-%m-%dT%H:%M:%S.%gZ')`;

/**
 * One column's SELECT item in a format. Parquet keeps types (timestamps as TIMESTAMPTZ in UTC, revenue as
 * DECIMAL, properties as MAP, the visitor id as text); NDJSON prints times as the API does, properties as an
 * object; CSV prints every text cell neutralised (http/csv.ts) and properties as a JSON object text.
 */
export function selectItem(c: Column, format: ExportFormat): string {
  const as = (expr: string) => `${expr} AS "${c.name}"`;
  if (c.kind === 'uuid') return as(`${c.sql}::VARCHAR`);
  if (format === 'parquet') return as(c.kind === 'timestamp' ? `${c.sql}::TIMESTAMPTZ` : c.sql);
  if (c.kind === 'timestamp') return as(iso(c.sql));
  if (format === 'ndjson') return as(c.sql);
  if (c.kind === 'map') return as(`CASE WHEN ${c.sql} IS NOT NULL AND cardinality(${c.sql}) > 0 THEN to_json(${c.sql})::VARCHAR END`);
  if (c.kind === 'text') return as(neutraliseSql(c.sql));
  return as(c.sql);
}

/** Markdown rows `| column | type | meaning |` of a table's export, for the docs. */
export const columnDocs = (tbl: ExportTable) => EXPORT_COLUMNS[tbl].map((c) => `| ${c.name} | ${c.kind} | ${c.doc} |`).join('\n');
