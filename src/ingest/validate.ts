// Field rules for /event, /identify and import lines (contract §6): strict on types, lenient on length.
// One table drives both the validator and the zod schemas of the OpenAPI document. The validator is
// hand-rolled because it runs per event on the hot path: a zod parse with transforms cost 10–25 µs
// per event here, a third of the whole budget at 30k events/s; this loop costs well under 1 µs.
import { z } from 'zod';
import { ApiError } from '../http/errors.ts';

export const EVENT_TYPES = ['pageview', 'click', 'form_submit', 'download', 'outbound', 'purchase', 'custom'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
const EVENT_TYPE_SET = new Set<string>(EVENT_TYPES);
const MAX_PROPS = 30;

type Rule =
  | { kind: 'text'; max: number; required?: boolean; doc: string }
  | { kind: 'url'; max: number; required?: boolean; doc: string }
  | { kind: 'number'; min: number; max: number; doc: string }
  | { kind: 'event_type'; doc: string }
  | { kind: 'currency'; doc: string }
  | { kind: 'props'; doc: string }
  | { kind: 'timestamp'; required: true; doc: string };

const EVENT_RULES: Record<string, Rule> = {
  site_id: { kind: 'text', max: 100, required: true, doc: 'Site public ID (pk_live_…)' },
  event_type: { kind: 'event_type', doc: 'Default pageview, or custom when only event_name is given' },
  url: { kind: 'url', max: 2000, required: true, doc: 'Absolute http(s) page URL; cut to 2000 characters' },
  event_name: { kind: 'text', max: 200, doc: 'Custom event name; cut to 200 characters' },
  referrer: { kind: 'text', max: 2000, doc: 'Referrer URL; cut to 2000 characters' },
  title: { kind: 'text', max: 500, doc: 'Page title; cut to 500 characters' },
  visitor_uid: { kind: 'text', max: 200, doc: 'Persistent visitor ID from the tracker' },
  session_id: { kind: 'text', max: 200, doc: 'Client-side session ID, stored as an attribute' },
  screen_w: { kind: 'number', min: 0, max: 100_000, doc: 'Screen width in CSS pixels' },
  screen_h: { kind: 'number', min: 0, max: 100_000, doc: 'Screen height in CSS pixels' },
  time_on_page: { kind: 'number', min: 0, max: 1e9, doc: 'Seconds spent on the previous page' },
  scroll_depth: { kind: 'number', min: 0, max: 100, doc: 'Maximum scroll percentage, 0–100' },
  revenue: { kind: 'number', min: -1e12, max: 1e12, doc: 'Revenue amount (purchase events)' },
  currency: { kind: 'currency', doc: 'ISO 4217 code, e.g. EUR' },
  order_id: { kind: 'text', max: 200, doc: 'Order ID (purchase events)' },
  properties: { kind: 'props', doc: 'Up to 30 keys with string, number or boolean values; others are dropped' },
};

const IMPORT_RULES: Record<string, Rule> = {
  ...EVENT_RULES,
  site_id: { kind: 'text', max: 100, doc: 'Ignored: the path names the site' },
  timestamp: { kind: 'timestamp', required: true, doc: 'ISO 8601 date-time with Z or an offset, from 1970-01-01 to a day in the future' },
  ip: { kind: 'text', max: 64, doc: 'Client IP, used for geolocation only (never stored)' },
  user_agent: { kind: 'text', max: 1000, doc: 'Client User-Agent' },
};

const IDENTIFY_RULES: Record<string, Rule> = {
  site_id: EVENT_RULES.site_id!,
  visitor_uid: { kind: 'text', max: 200, required: true, doc: 'Visitor UID from the tracker' },
  user_id: { kind: 'text', max: 200, required: true, doc: 'Your own user ID (shown as external_id)' },
  name: { kind: 'text', max: 200, doc: 'Display name' },
  email: { kind: 'text', max: 320, doc: 'E-mail' },
  avatar: { kind: 'text', max: 2000, doc: 'Avatar URL (shown as avatar_url)' },
  custom: { kind: 'props', doc: 'Custom attributes: up to 30 scalar values, merged into earlier ones' },
};

type Props = Record<string, string> | null;
export type EventInput = {
  site_id: string; event_type: EventType; url: string; event_name: string | null; referrer: string | null;
  title: string | null; visitor_uid: string | null; session_id: string | null; screen_w: number | null;
  screen_h: number | null; time_on_page: number | null; scroll_depth: number | null; revenue: number | null;
  currency: string | null; order_id: string | null; properties: Props;
};
export type ImportInput = EventInput & { timestamp: number; ip: string | null; user_agent: string | null };
export type IdentifyInput = {
  site_id: string; visitor_uid: string; user_id: string; name: string | null; email: string | null;
  avatar: string | null; custom: Props;
};

/** Lone surrogates and NULs would make the stored NDJSON unreadable to DuckDB, so they never get in. */
function clean(s: string, max: number): string {
  if (s.length > max) s = s.slice(0, max);
  if (!s.isWellFormed()) s = s.toWellFormed();
  return s.includes('\u0000') ? s.replaceAll('\u0000', '') : s;
}

function props(o: object): Props {
  // No prototype: a "__proto__" key stays a plain key.
  const out: Record<string, string> = Object.create(null);
  let n = 0;
  for (const k in o) {
    if (n >= MAX_PROPS) break;
    const v = (o as any)[k];
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
    const key = clean(k, 200);
    if (!key) continue;
    out[key] = clean(String(v), 500);
    n++;
  }
  return n ? out : null;
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The checked value of one field, or a string saying what is wrong with it. */
function field(rule: Rule, v: unknown): unknown {
  if (v === undefined || v === null || (v === '' && !('required' in rule && rule.required))) {
    return 'required' in rule && rule.required ? MISSING : null;
  }
  switch (rule.kind) {
    case 'text':
      return typeof v === 'string' ? clean(v, rule.max) || (rule.required ? new Issue('must not be empty') : null) : new Issue('expected a string');
    case 'url': {
      if (typeof v !== 'string') return new Issue('expected a string');
      const s = clean(v, rule.max);
      return /^https?:\/\//i.test(s) && URL.canParse(s) ? s : new Issue('must be an absolute http(s) URL');
    }
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return new Issue('expected a number');
      return v < rule.min || v > rule.max ? new Issue(`must be between ${rule.min} and ${rule.max}`) : v;
    case 'event_type':
      return typeof v === 'string' && EVENT_TYPE_SET.has(v) ? v : new Issue(`must be one of ${EVENT_TYPES.join(', ')}`);
    case 'currency':
      return typeof v === 'string' && /^[A-Za-z]{3}$/.test(v) ? v.toUpperCase() : new Issue('must be a 3-letter ISO 4217 code');
    case 'props':
      return typeof v === 'object' && !Array.isArray(v) ? props(v) : new Issue('expected an object of scalar values');
    case 'timestamp': {
      const ms = typeof v === 'string' && ISO_DATETIME.test(v) ? Date.parse(v) : NaN;
      if (!Number.isFinite(ms)) return new Issue('must be an ISO 8601 date-time with Z or an offset');
      // A day of slack for skewed clocks; later than that is a mistake that would sit in the hot tables.
      if (ms < 0) return new Issue('must not be before 1970-01-01');
      return ms > Date.now() + 86_400_000 ? new Issue('must not be more than a day in the future') : ms;
    }
  }
}

class Issue { constructor(readonly message: string) {} }
const MISSING = new Issue('missing');

type Fail = (status: number, msg: string) => ApiError;

function check(rules: Record<string, Rule>, o: Record<string, unknown>, fail: Fail): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in rules) {
    const r = field(rules[name]!, o[name]);
    if (r instanceof Issue) throw fail(400, r === MISSING ? `Missing required field '${name}'` : `Invalid field '${name}': ${r.message}`);
    out[name] = r;
  }
  return out;
}

/** event_type defaults to pageview, or custom when only event_name is given (contract §6). */
function withType<T extends Record<string, unknown>>(e: T): T {
  if (!e.event_type) (e as any).event_type = e.event_name ? 'custom' : 'pageview';
  return e;
}

function parseObject(raw: string, fail: Fail, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw fail(400, `Malformed ${what}: expected valid JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail(400, `Malformed ${what}: expected a JSON object`);
  return value as Record<string, unknown>;
}

export const parseEvent = (raw: string, fail: Fail) => withType(check(EVENT_RULES, parseObject(raw, fail, 'request body'), fail)) as EventInput;
export const parseImportLine = (raw: string, fail: Fail) => withType(check(IMPORT_RULES, parseObject(raw, fail, 'line'), fail)) as ImportInput;
/** An import event built by a format adapter from its own fields: the same rules as an NDJSON line. */
export const checkImportObject = (o: Record<string, unknown>, fail: Fail) => withType(check(IMPORT_RULES, o, fail)) as ImportInput;
export const parseIdentify = (raw: string, fail: Fail) => check(IDENTIFY_RULES, parseObject(raw, fail, 'request body'), fail) as IdentifyInput;

/** The same rules as zod schemas, for the OpenAPI document only. */
function docSchema(rules: Record<string, Rule>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, r] of Object.entries(rules)) {
    let t: z.ZodType;
    if (r.kind === 'text' || r.kind === 'url') t = z.string();
    else if (r.kind === 'number') t = z.number().min(r.min).max(r.max);
    else if (r.kind === 'event_type') t = z.enum(EVENT_TYPES);
    else if (r.kind === 'currency') t = z.string().regex(/^[A-Za-z]{3}$/);
    else if (r.kind === 'props') t = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
    else t = z.iso.datetime({ offset: true });
    t = t.describe(r.doc);
    shape[name] = 'required' in r && r.required ? t : t.optional();
  }
  return z.object(shape);
}

export const EventDoc = docSchema(EVENT_RULES);
export const IdentifyDoc = docSchema(IDENTIFY_RULES);
export const ImportLineDoc = docSchema(IMPORT_RULES);
