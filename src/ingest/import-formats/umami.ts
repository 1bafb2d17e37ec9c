// Umami's data export: a CSV of website_event rows with their session's columns (hostname, browser, os, device,
// screen, country, subdivision1, city…), header first, columns found by name. event_type 1 is a pageview, 2 a
// custom event (event_name); Umami's session_id (or distinct_id when set) is the visitor.
import { ApiError } from '../../http/errors.ts';
import { checkImportObject } from '../validate.ts';
import { lines } from './body-lines.ts';
import { csvRecords } from './csv-records.ts';
import type { ImportFormat, ImportItem, Known } from './item.ts';

const fail = (status: number, msg: string) => new ApiError(status, msg);
const REQUIRED = ['created_at', 'session_id', 'url_path', 'event_type'];
const TAGS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'gclid', 'fbclid', 'msclkid', 'ttclid', 'li_fat_id', 'twclid'];

/** Umami's browser keys (its detect-browser names) → the names Tern's user-agent parsing gives. */
const BROWSERS: Record<string, string> = {
  chrome: 'Chrome', crios: 'Chrome', 'chromium-webview': 'Chrome', firefox: 'Firefox', fxios: 'Firefox', safari: 'Safari', ios: 'Safari',
  'ios-webview': 'Safari', 'edge-chromium': 'Edge', edge: 'Edge', 'edge-ios': 'Edge', opera: 'Opera', 'opera-mini': 'Opera Mini',
  samsung: 'Samsung Internet', yandexbrowser: 'Yandex', ie: 'IE', facebook: 'Facebook', instagram: 'Instagram', android: 'Android Browser',
  silk: 'Silk', miui: 'MIUI Browser', kakaotalk: 'KakaoTalk',
};
const OSES: Record<string, string> = { 'Mac OS': 'macOS', 'Android OS': 'Android', 'Chrome OS': 'Chrome OS', 'Linux': 'Linux', 'iOS': 'iOS' };

/** "2024-05-30 09:41:24.123" (Umami writes UTC without a zone), or ISO 8601 with one. */
function timestamp(v: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?$/i.exec(v.trim());
  return m ? `${m[1]}T${m[2]}${m[3] ?? 'Z'}` : null;
}

/** "Windows 10" → Windows / 10; "Mac OS" → macOS. */
function os(v: string): { os: string | null; os_version: string | null } {
  if (!v) return { os: null, os_version: null };
  const win = /^Windows (.+)$/.exec(v);
  if (win) return { os: 'Windows', os_version: win[1]! };
  return { os: OSES[v] ?? v, os_version: null };
}

function row(get: (name: string) => string, line: number, fallbackHost: string): ImportItem {
  const type = get('event_type');
  if (!/^\d+$/.test(type)) return { line, error: `Invalid event_type '${type}': expected 1 (pageview) or 2 (custom event)` };
  // Later Umami versions add link (3) and pixel (4) events: no page was viewed there.
  if (type !== '1' && type !== '2') return { line, skip: true };
  const ts = timestamp(get('created_at'));
  if (!ts) return { line, error: `Invalid created_at '${get('created_at')}': expected YYYY-MM-DD HH:MM:SS (UTC)` };
  const path = get('url_path');
  if (!path) return { line, error: 'Missing url_path' };
  const host = get('hostname') || fallbackHost;
  const query = get('url_query');
  const refHost = get('referrer_domain');
  const refQuery = get('referrer_query');
  const width = Number(/^(\d+)x\d+$/.exec(get('screen'))?.[1]);
  try {
    const event = checkImportObject({
      timestamp: ts,
      event_type: type === '1' ? 'pageview' : 'custom',
      event_name: type === '2' ? get('event_name') || null : null,
      url: `https://${host}${path.startsWith('/') ? path : `/${path}`}${query ? `?${query}` : ''}`,
      referrer: refHost ? `https://${refHost}${get('referrer_path') || '/'}${refQuery ? `?${refQuery}` : ''}` : null,
      title: get('page_title') || null,
      visitor_uid: get('distinct_id') || get('session_id') || null,
      session_id: get('visit_id') || null,
      screen_w: Number.isFinite(width) ? width : null,
    }, fail);
    const browser = get('browser');
    const device = get('device');
    const known: Known = {
      ...os(get('os')),
      browser: browser ? (BROWSERS[browser] ?? browser) : null,
      browser_version: null,
      device: device === 'laptop' ? 'desktop' : device || null,
      country: /^[A-Z]{2}$/.test(get('country')) ? get('country') : null,
      // Umami keeps ISO 3166-2 codes (US-CA) where Tern keeps region names: left empty rather than mixed.
      city: get('city') || null,
    };
    if (!event.visitor_uid) return { line, error: 'Missing session_id' };
    const tags: Record<string, string> = {};
    for (const t of TAGS) { const v = get(t); if (v) tags[t] = v; }
    return { line, event, known, tags: Object.keys(tags).length ? tags : undefined };
  } catch (e) {
    return { line, error: e instanceof ApiError ? e.message : 'Could not read this row' };
  }
}

export const umami: ImportFormat = async function* (bytes, ctx) {
  let columns: Map<string, number> | null = null;
  for await (const rec of csvRecords(lines(bytes))) {
    if ('error' in rec) { yield rec; continue; }
    if (!columns) {
      columns = new Map(rec.fields.map((f, i) => [f.trim().toLowerCase(), i]));
      const missing = REQUIRED.filter((c) => !columns!.has(c));
      if (missing.length) throw new ApiError(400, `Line 1 is not the header of Umami's export: missing column(s) ${missing.join(', ')}`);
      continue;
    }
    const cols = columns;
    const get = (name: string) => { const i = cols.get(name); return i === undefined ? '' : (rec.fields[i] ?? '').trim(); };
    yield row(get, rec.line, ctx.site.domain);
  }
};
