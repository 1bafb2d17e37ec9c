// Web server access logs in the combined format (nginx's default `combined`, Apache's `%h %l %u %t "%r" %>s %b
// "%{Referer}i" "%{User-agent}i"`), plain or gzip: the pageviews of HTML pages only. Skipped, and counted as
// such: requests other than GET, statuses other than 200 and 304, assets (a file extension that is not a page's),
// well-known non-page paths, and bots (the live bot rules, plus an empty user agent). The visitor is the
// fingerprint of IP and user agent on the line's day, as for anonymous live events.
import { ApiError } from '../../http/errors.ts';
import { agentOf } from '../enrich/agent.ts';
import { checkImportObject } from '../validate.ts';
import { lines, MAX_LINE_CHARS } from './body-lines.ts';
import type { ImportFormat, ImportItem } from './item.ts';

const fail = (status: number, msg: string) => new ApiError(status, msg);

// A quoted field: nginx writes a quote inside as \x22, Apache as \".
const Q = String.raw`"((?:[^"\\]|\\.)*)"`;
const COMBINED = new RegExp(String.raw`^(\S+) \S+ \S+ \[([^\]]+)\] ${Q} (\d{3}) (?:\d+|-)(?: ${Q} ${Q})?`);
const TIME = /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;
const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/** Extensions of pages; any other extension is an asset (css, js, images, fonts, feeds, downloads…). */
const PAGE_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'shtml', 'php', 'asp', 'aspx', 'jsp', 'cfm']);
/** Paths browsers or tools fetch that no one reads as a page. */
const NOT_PAGES = /^\/(?:\.well-known|api|wp-admin|wp-json|_next|static|assets|cgi-bin)(?:\/|$)/i;
const KEPT_STATUS = new Set(['200', '304']);

const unescape = (s: string) => s.replace(/\\x([0-9a-fA-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))).replace(/\\(.)/g, '$1');

/** `[10/Oct/2000:13:55:36 -0700]` → ms since the epoch. */
function logTime(s: string): number | null {
  const m = TIME.exec(s);
  const month = m ? MONTHS[m[2]!] : undefined;
  if (!m || month === undefined) return null;
  const offset = (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60_000;
  return Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])) - offset;
}

function isPage(target: string): boolean {
  const path = target.split(/[?#]/, 1)[0]!;
  if (!path.startsWith('/') || NOT_PAGES.test(path)) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot <= 0 || PAGE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}

export function accessLogLine(line: string, n: number, domain: string): ImportItem {
  const m = COMBINED.exec(line);
  if (!m) return { line: n, error: 'Not a combined-format log line: expected IP - user [time] "request" status bytes "referer" "user-agent"' };
  const [, ip, time, request, status, referer, userAgent] = m as unknown as string[];
  const ms = logTime(time!);
  if (ms === null) return { line: n, error: `Invalid time '${time}': expected dd/Mon/yyyy:hh:mm:ss +zzzz` };
  if (!KEPT_STATUS.has(status!)) return { line: n, skip: true };
  const [method, target] = unescape(request!).split(' ');
  if (method !== 'GET' || !target || !isPage(target)) return { line: n, skip: true };
  const ua = userAgent === undefined ? '' : unescape(userAgent);
  if (ua === '' || ua === '-' || agentOf(ua).bot) return { line: n, skip: true };
  const ref = referer === undefined ? '' : unescape(referer);
  try {
    const event = checkImportObject({
      timestamp: new Date(ms).toISOString(),
      url: `https://${domain}${target}`,
      referrer: ref && ref !== '-' ? ref : null,
      ip,
      user_agent: ua,
    }, fail);
    return { line: n, event };
  } catch (e) {
    return { line: n, error: e instanceof ApiError ? e.message : 'Could not read this line' };
  }
}

export const accessLog: ImportFormat = async function* (bytes, ctx) {
  let n = 0;
  for await (const line of lines(bytes)) {
    n++;
    if (line === null) { yield { line: n, error: `Line too long: at most ${MAX_LINE_CHARS / 1024} KiB` }; continue; }
    if (!line.trim()) continue;
    yield accessLogLine(line, n, ctx.site.domain);
  }
};
