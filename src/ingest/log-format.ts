// The NDJSON line format of the durable log (and of import staging files): one stored event per line.
// The same column list types the DuckDB read_json() that bulk-loads the lines, so the two cannot drift.
import { EVENT_COLUMNS, type EventColumn } from '../storage/event-columns.ts';

/** Log-only columns: the tracker's visitor_uid feeds the visitor profile, not the events table. */
const LOG_ONLY_COLUMNS = [['uid', 'VARCHAR']] as const;

/** One log line; ts is in ms since the epoch; visit_id and engaged_* are null in import staging (assigned in SQL). */
export type LogRow = { [K in EventColumn]: any } & { ts: number; uid: string | null };

/** Columns added after the first log format: their keys come last, so an older server's segments still replay. */
const ADDED_COLUMNS: readonly EventColumn[] = ['engaged_path', 'engaged_hostname'];
/**
 * The time is written as ms since the epoch under its own key, read into ts: formatting an ISO string per
 * event on the event route's thread, and DuckDB parsing it back, cost more than a number. Lines of older
 * servers carry the ISO string under ts's own key, read as before.
 */
const TS_MS = 'ts_ms';
const ALL: (readonly [string, string])[] = [
  ...EVENT_COLUMNS.filter(([c]) => !ADDED_COLUMNS.includes(c)),
  ...LOG_ONLY_COLUMNS,
  ...EVENT_COLUMNS.filter(([c]) => ADDED_COLUMNS.includes(c)),
  [TS_MS, 'BIGINT'],
];
/**
 * Keys in the file are one or two letters (a, b, … z, ba, …) by position in ALL, not column names: key
 * names were half of every line, and every byte is written, fsync'd and parsed again by DuckDB. Null
 * members are left out (read_json reads an absent key as NULL). A new column is appended to ALL, never
 * inserted, so the keys of existing columns never move.
 */
const SHORT = ALL.map((_, i) => (i < 26 ? '' : String.fromCharCode(97 + Math.floor(i / 26))) + String.fromCharCode(97 + (i % 26)));
const key = (column: string) => SHORT[ALL.findIndex(([c]) => c === column)]!;
/** The key a column is written under in a log line (for tools that read lines without DuckDB). */
export const logKey = (column: EventColumn) => key(column);
/** Row property → key written; ts goes out as a number under ts_ms's key. */
const FIELDS = ALL.filter(([c]) => c !== TS_MS).map(([c], i) => [c, c === 'ts' ? key(TS_MS) : SHORT[i]!] as const);

/**
 * One NDJSON line (no newline) for a row. Generated once from the column list: an object literal of fixed
 * shape takes the engine's fast JSON.stringify path (2.4× faster than building the line field by field).
 */
export const toLine = new Function('r', `return JSON.stringify({${FIELDS.map(([c, k]) => `${k}: r.${c} ?? undefined`).join(', ')}});`) as (row: LogRow) => string;

const columnsStruct = ALL.map(([, t], i) => `${SHORT[i]}: '${t}'`).join(', ');
const renames = ALL.filter(([c]) => c !== TS_MS)
  .map(([c], i) => (c === 'ts' ? `coalesce(epoch_ms(${key(TS_MS)}), ${SHORT[i]}) AS ts` : `${SHORT[i]} AS ${c}`)).join(', ');

/** A FROM-able relation with the log's rows under their column names, over bound file paths (one `?`, a VARCHAR[] list). */
export const readLogSql = `(SELECT ${renames} FROM read_json(?::VARCHAR[], format = 'newline_delimited', columns = {${columnsStruct}}))`;
