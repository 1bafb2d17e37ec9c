// CSV answers by negotiation: a route group that uses csvAnswers() answers `Accept: text/csv` (or `format=csv`)
// with its envelope's list as CSV rows (http/csv.ts: RFC 4180, formulas neutralised), header row first,
// streamed in chunks, with a file name naming the site and the range. JSON stays the default.
import { Elysia } from 'elysia';
import { csvLine } from './csv.ts';

const CHUNK_ROWS = 1000;
/** Where a report keeps its list, in order of preference (contract §8 payloads). */
const LIST_KEYS = ['results', 'points', 'goals', 'completions', 'visitors', 'events', 'steps', 'funnels', 'annotations', 'pages', 'by_currency'];

/** True when the client asked for CSV: format=csv, or an Accept header naming text/csv before any JSON. */
export function wantsCsv(request: Request): boolean {
  const format = new URL(request.url).searchParams.get('format');
  if (format !== null) return format.toLowerCase() === 'csv';
  const accept = request.headers.get('accept')?.toLowerCase() ?? '';
  const csv = accept.indexOf('text/csv');
  if (csv < 0) return false;
  const json = accept.indexOf('application/json');
  return json < 0 || csv < json;
}

/** An object's fields with nested objects flattened to dotted names; lists as JSON. */
function flatten(v: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) {
    for (const [k, x] of Object.entries(v)) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix || 'value'] = Array.isArray(v) ? JSON.stringify(v) : v;
  return out;
}

/**
 * The rows of a payload: the query API's results as its dimension and metric names; else the payload's
 * list (or the payload itself, as one row: stats, a goal's metrics), each row flattened.
 */
export function csvRows(data: any): { columns: string[]; rows: unknown[][] } {
  if (Array.isArray(data?.results) && Array.isArray(data?.query?.dimensions) && Array.isArray(data?.query?.metrics)) {
    return {
      columns: [...data.query.dimensions, ...data.query.metrics],
      rows: data.results.map((r: any) => [...r.dimensions, ...r.metrics]),
    };
  }
  const key = LIST_KEYS.find((k) => Array.isArray(data?.[k])) ?? Object.keys(data ?? {}).find((k) => Array.isArray(data[k]));
  const list: unknown[] = Array.isArray(data) ? data : key ? data[key] : [data?.metrics ?? data];
  const flat = list.map((r) => flatten(r));
  const columns: string[] = [];
  for (const r of flat) for (const c of Object.keys(r)) if (!columns.includes(c)) columns.push(c);
  return { columns, rows: flat.map((r) => columns.map((c) => r[c])) };
}

/** `<domain>-<what>-<from>-<to>.csv`, in safe characters. */
function fileName(request: Request, data: any, site?: { domain?: string }) {
  // The path after the site, ids left out: analytics-sources, goals-stats, query.
  const path = new URL(request.url).pathname.split('/').filter(Boolean);
  const after = path.slice(path.indexOf('sites') + 2).filter((p) => !/^[0-9a-f-]{36}$/i.test(p));
  const what = after.join('-') || 'export';
  const range = data?.range ?? data?.meta?.range;
  const parts = [site?.domain ?? 'site', what, ...(range?.from ? [range.from, range.to] : [])];
  return `${parts.join('-').replace(/[^A-Za-z0-9._-]+/g, '_')}.csv`;
}

/** The CSV body, header first, streamed CHUNK_ROWS records at a time. */
function csvStream(columns: string[], rows: unknown[][]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = -1;
  return new ReadableStream({
    pull(ctrl) {
      if (i < 0) {
        ctrl.enqueue(enc.encode(csvLine(columns)));
        i = 0;
        return;
      }
      if (i >= rows.length) return ctrl.close();
      ctrl.enqueue(enc.encode(rows.slice(i, i + CHUNK_ROWS).map(csvLine).join('')));
      i += CHUNK_ROWS;
    },
  });
}

/** The hook: a successful envelope becomes CSV when asked; errors stay JSON. */
export const csvAnswers = () =>
  new Elysia().mapResponse({ as: 'scoped' }, (ctx: any) => {
    const { request, responseValue: body, set } = ctx;
    if (!wantsCsv(request) || body === null || typeof body !== 'object' || body.success !== true) return;
    const { columns, rows } = csvRows(body.data);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(set.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    headers['content-type'] = 'text/csv; charset=utf-8';
    headers['content-disposition'] = `attachment; filename="${fileName(request, body.data, ctx.access?.site)}"`;
    return new Response(csvStream(columns, rows), { status: typeof set.status === 'number' ? set.status : 200, headers });
  });
