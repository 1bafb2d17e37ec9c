// CSV as RFC 4180 (CRLF line ends; a field with a comma, quote or line break quoted, quotes doubled) with
// formula neutralisation: a text cell starting with = + - @ (or a tab or carriage return, which spreadsheets
// skip before such a sign) gets a leading ' so a spreadsheet shows it instead of running it (OWASP's advice).
// One rule, two writers: csvLine() for rows in JS (an endpoint's JSON rows), csvSelect() for DuckDB's COPY.

/** First characters a spreadsheet would read as the start of a formula. */
const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];

const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null/undefined empty, numbers and booleans as they print, text neutralised then quoted if needed. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  let s = typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : JSON.stringify(v);
  if (s.length && FORMULA_START.includes(s[0]!)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One record, CRLF-terminated. */
export const csvLine = (values: unknown[]) => values.map(csvCell).join(',') + '\r\n';

/** A header line and the records of `rows` (objects) in the order of `columns`. */
export function csvText(columns: string[], rows: Record<string, unknown>[]): string {
  return csvLine(columns) + rows.map((r) => csvLine(columns.map((c) => r[c]))).join('');
}

/** The same neutralisation as csvCell, as a DuckDB expression over a VARCHAR expression. */
export const neutraliseSql = (expr: string) =>
  `CASE WHEN left(${expr}, 1) IN (${FORMULA_START.map((c) => (c === '\t' ? 'chr(9)' : c === '\r' ? 'chr(13)' : `'${c}'`)).join(', ')}) THEN '''' || ${expr} ELSE ${expr} END`;

/** COPY options that make DuckDB write RFC 4180 (its quoting rule is the one above). */
export const CSV_COPY_OPTIONS = `FORMAT csv, HEADER true, DELIMITER ',', QUOTE '"', ESCAPE '"', NEW_LINE '\r\n'`;
