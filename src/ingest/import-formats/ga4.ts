// Google Analytics 4's BigQuery export (rows of the events_YYYYMMDD tables), as newline-delimited JSON or as
// Parquet, → Tern events. The mapping table is in the import docs; in short: page_view → pageview, purchase →
// purchase (ecommerce.purchase_revenue, transaction_id), GA4's bookkeeping events skipped, the rest custom.
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../http/errors.ts';
import { sqlPath } from '../../storage/parquet-layout.ts';
import { majorMinor } from '../enrich/user-agent.ts';
import { checkImportObject } from '../validate.ts';
import { lines, MAX_LINE_CHARS, peek } from './body-lines.ts';
import { countryCode } from './country-names.ts';
import type { FormatContext, ImportFormat, ImportItem, Known } from './item.ts';

const fail = (status: number, msg: string) => new ApiError(status, msg);

/** GA4's own events that describe sessions and engagement rather than something the visitor did. */
const SKIPPED = new Set(['session_start', 'first_visit', 'user_engagement', 'scroll', 'first_open', 'screen_view', 'app_remove', 'os_update']);
const TYPES: Record<string, string> = { page_view: 'pageview', purchase: 'purchase', file_download: 'download', form_submit: 'form_submit' };
/** Parameters mapped to their own columns or internal to GA4: not copied into properties. */
const MAPPED_PARAMS = new Set([
  'page_location', 'page_referrer', 'page_title', 'ga_session_id', 'ga_session_number', 'engaged_session_event', 'engagement_time_msec',
  'session_engaged', 'entrances', 'ignore_referrer', 'batch_page_id', 'batch_ordering_id', 'currency', 'transaction_id', 'value',
  'source', 'medium', 'campaign', 'term', 'content', 'gclid', 'dclid', 'debug_mode', 'synthetic_bundle', 'outbound',
]);
const OS_NAMES: Record<string, string> = { Macintosh: 'macOS', 'Mac OS X': 'macOS', 'Chrome OS': 'Chrome OS', ChromeOS: 'Chrome OS' };

type Param = { key?: string; value?: { string_value?: unknown; int_value?: unknown; float_value?: unknown; double_value?: unknown } };

const notSet = (v: unknown): string | null => (typeof v === 'string' && v && v !== '(not set)' && v !== '(none)' && v !== '(direct)' ? v : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** event_params as a plain object: the one value each parameter has (BigQuery's JSON writes INT64 as strings). */
function paramsOf(list: unknown): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (!Array.isArray(list)) return out;
  for (const p of list as Param[]) {
    if (!p || typeof p.key !== 'string' || !p.value) continue;
    const v = p.value;
    const value = v.string_value ?? v.int_value ?? v.double_value ?? v.float_value;
    if (value === null || value === undefined) continue;
    out[p.key] = typeof value === 'string' && v.string_value == null ? (num(value) ?? value) : (value as string | number);
  }
  return out;
}

/** One export row → an item (`line`: its line, or its row for Parquet). */
export function ga4Row(row: Record<string, any>, line: number): ImportItem {
  const name = typeof row.event_name === 'string' ? row.event_name : null;
  if (!name) return { line, error: "Missing required field 'event_name'" };
  if (SKIPPED.has(name)) return { line, skip: true };
  const micros = num(row.event_timestamp);
  if (micros === null) return { line, error: "Missing or invalid 'event_timestamp': expected microseconds since the epoch" };
  // Consent mode's cookieless pings have no user_pseudo_id: nothing would tell their visitors apart.
  const uid = notSet(row.user_pseudo_id);
  if (!uid) return { line, skip: true };
  const p = paramsOf(row.event_params);
  if (typeof p.page_location !== 'string') return { line, error: "Missing event_params 'page_location': the page URL" };
  const ecommerce = row.ecommerce ?? {};
  const device = row.device ?? {};
  const web = device.web_info ?? {};
  const geo = row.geo ?? {};
  const type = TYPES[name] ?? (name === 'click' && (p.outbound === 'true' || p.outbound === 1) ? 'outbound' : 'custom');
  const props: Record<string, string | number> = {};
  for (const k in p) if (!MAPPED_PARAMS.has(k)) props[k] = p[k]!;
  try {
    const event = checkImportObject({
      timestamp: new Date(Math.floor(micros / 1000)).toISOString(),
      event_type: type,
      event_name: type === 'pageview' || type === 'purchase' ? null : name,
      url: p.page_location,
      referrer: typeof p.page_referrer === 'string' ? p.page_referrer : null,
      title: typeof p.page_title === 'string' ? p.page_title : null,
      visitor_uid: uid,
      session_id: p.ga_session_id !== undefined ? String(p.ga_session_id) : null,
      revenue: type === 'purchase' ? num(ecommerce.purchase_revenue) ?? num(p.value) : null,
      currency: type === 'purchase' ? (p.currency ?? null) : null,
      order_id: type === 'purchase' ? (notSet(ecommerce.transaction_id) ?? (typeof p.transaction_id === 'string' ? p.transaction_id : null)) : null,
      properties: Object.keys(props).length ? props : null,
    }, fail);
    const os = notSet(device.operating_system);
    const known: Known = {
      device: notSet(device.category)?.toLowerCase() ?? null,
      os: os ? (OS_NAMES[os] ?? os) : null,
      os_version: majorMinor(notSet(device.operating_system_version)?.replace(/^[^\d]*/, '') || undefined),
      browser: notSet(web.browser) ?? notSet(device.browser),
      browser_version: majorMinor(notSet(web.browser_version) ?? notSet(device.browser_version) ?? undefined),
      country: countryCode(notSet(geo.country)),
      region: notSet(geo.region),
      city: notSet(geo.city),
    };
    return { line, event, known, tags: tagsOf(p, row, num(p.ga_session_number)) };
  } catch (e) {
    return { line, error: e instanceof ApiError ? e.message : 'Could not read this row' };
  }
}

/**
 * Campaign tags GA4 recorded beside the URL: the event's own source/medium/campaign parameters, else
 * collected_traffic_source (manual tags, gclid), else — on the user's first session only, since it is the
 * user's first-touch acquisition — traffic_source.
 */
function tagsOf(p: Record<string, string | number>, row: Record<string, any>, sessionNumber: number | null): Record<string, string> | undefined {
  const c = row.collected_traffic_source ?? {};
  const t = sessionNumber === 1 ? (row.traffic_source ?? {}) : {};
  const pick = (...vs: unknown[]) => { for (const v of vs) { const s = notSet(typeof v === 'number' ? String(v) : v); if (s) return s; } return null; };
  const tags: Record<string, string> = {};
  const set = (k: string, v: string | null) => { if (v) tags[k] = v; };
  set('utm_source', pick(p.source, c.manual_source, t.source));
  set('utm_medium', pick(p.medium, c.manual_medium, t.medium));
  set('utm_campaign', pick(p.campaign, c.manual_campaign_name, t.name));
  set('utm_term', pick(p.term, c.manual_term));
  set('utm_content', pick(p.content, c.manual_content));
  set('gclid', pick(p.gclid, c.gclid));
  set('dclid', pick(p.dclid, c.dclid));
  // A medium without a source (GA4 writes "organic" with source "google") still needs its source to count.
  if (!tags.utm_source) { delete tags.utm_medium; delete tags.utm_campaign; }
  return Object.keys(tags).length ? tags : undefined;
}

async function* fromLines(src: AsyncIterable<string | null>): AsyncGenerator<ImportItem> {
  let n = 0;
  for await (const line of src) {
    n++;
    if (line === null) { yield { line: n, error: `Line too long: at most ${MAX_LINE_CHARS / 1024} KiB` }; continue; }
    if (!line.trim()) continue;
    let row: unknown;
    try { row = JSON.parse(line); } catch { yield { line: n, error: 'Malformed line: expected valid JSON' }; continue; }
    if (!row || typeof row !== 'object' || Array.isArray(row)) { yield { line: n, error: 'Malformed line: expected a JSON object' }; continue; }
    yield ga4Row(row as Record<string, any>, n);
  }
}

/** A Parquet body: written to a staging file, turned into NDJSON by DuckDB (one line per row, in row order). */
async function* fromParquet(bytes: AsyncGenerator<Uint8Array>, ctx: FormatContext): AsyncGenerator<ImportItem> {
  const parquet = join(ctx.stagingDir, `${ctx.nonce}.ga4.parquet`);
  const json = join(ctx.stagingDir, `${ctx.nonce}.ga4.ndjson`);
  try {
    const fd = await open(parquet, 'w');
    try { for await (const chunk of bytes) await fd.write(chunk); } finally { await fd.close(); }
    try {
      await ctx.db.exec(`COPY (SELECT * FROM read_parquet(${sqlPath(parquet)})) TO ${sqlPath(json)} (FORMAT json)`);
    } catch (e) {
      throw new ApiError(400, `The body starts like Parquet but could not be read as Parquet: ${String((e as Error).message).split('\n')[0]}`);
    }
    yield* fromLines(lines(createReadStream(json) as AsyncIterable<Uint8Array>));
  } finally {
    await rm(parquet, { force: true });
    await rm(json, { force: true });
  }
}

export const ga4: ImportFormat = async function* (bytes, ctx) {
  const { match, bytes: body } = await peek(bytes, [0x50, 0x41, 0x52, 0x31]); // "PAR1"
  yield* match ? fromParquet(body, ctx) : fromLines(lines(body));
};
