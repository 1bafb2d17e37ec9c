// zod schemas for /event, /identify and import lines (contract §6): strict on types, lenient on length.
import { z } from 'zod';
import { ApiError } from '../http/errors.ts';

export const EVENT_TYPES = ['pageview', 'click', 'form_submit', 'download', 'outbound', 'purchase', 'custom'] as const;
const MAX_PROPS = 30;

/** Lone surrogates and NULs would make the stored NDJSON unreadable to DuckDB, so they never get in. */
const clean = (s: string) => {
  const w = s.toWellFormed();
  return w.includes('\u0000') ? w.replaceAll('\u0000', '') : w;
};

/** Over-long text is cut, not refused: trackers send what browsers give them. */
const text = (max: number) => z.string().transform((s) => clean(s.length > max ? s.slice(0, max) : s));
const optText = (max: number) => text(max).nullish().transform((s) => s || null);

const httpUrl = (max: number) =>
  text(max).refine((s) => {
    if (!/^https?:\/\//i.test(s)) return false;
    return URL.canParse(s);
  }, 'must be an absolute http(s) URL');

const num = (min: number, max: number) => z.number().finite().min(min).max(max).nullish().transform((n) => n ?? null);

/** Up to 30 scalar properties, stringified; nested values and nulls are dropped, not stored raw. */
const Properties = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((o) => {
    if (!o) return null;
    const out: Record<string, string> = {};
    let n = 0;
    for (const [k, v] of Object.entries(o)) {
      if (n >= MAX_PROPS) break;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
      const key = clean(k.slice(0, 200));
      if (!key) continue;
      out[key] = clean(String(v).slice(0, 500));
      n++;
    }
    return n ? out : null;
  });

const eventFields = {
  event_type: z.enum(EVENT_TYPES).optional(),
  url: httpUrl(2000),
  event_name: optText(200),
  referrer: optText(2000),
  title: optText(500),
  visitor_uid: optText(200),
  session_id: optText(200),
  screen_w: num(0, 100_000),
  screen_h: num(0, 100_000),
  time_on_page: num(0, 1e9),
  scroll_depth: num(0, 100),
  revenue: num(-1e12, 1e12),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter ISO 4217 code')
    .nullish()
    .transform((c) => (c ? c.toUpperCase() : null)),
  order_id: optText(200),
  properties: Properties,
};

/** event_type defaults to pageview, or custom when only event_name is given (contract §6). */
const withType = <T extends { event_type?: (typeof EVENT_TYPES)[number]; event_name: string | null }>(e: T) => ({
  ...e,
  event_type: e.event_type ?? (e.event_name ? 'custom' : 'pageview'),
});

export const EventBody = z.object({ site_id: z.string(), ...eventFields }).transform(withType);
export type EventInput = z.output<typeof EventBody>;

export const IdentifyBody = z.object({
  site_id: z.string(),
  visitor_uid: text(200).refine((s) => s.length > 0, 'must not be empty'),
  user_id: text(200).refine((s) => s.length > 0, 'must not be empty'),
  name: optText(200),
  email: optText(320),
  avatar: optText(2000),
  custom: Properties,
});
export type IdentifyInput = z.output<typeof IdentifyBody>;

/** An import line: an /event body plus when and from where it happened; site_id comes from the path. */
export const ImportLine = z
  .object({
    site_id: z.string().optional(),
    ...eventFields,
    timestamp: z.iso.datetime({ offset: true }).transform((s) => new Date(s).getTime()),
    ip: optText(64),
    user_agent: optText(1000),
  })
  .transform(withType);
export type ImportInput = z.output<typeof ImportLine>;

/** One line naming the first offending field, e.g. "Invalid field 'scroll_depth': ..." or "Missing required field 'url'". */
export function describeIssue(error: z.ZodError, what = 'request body'): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join('.');
  if (!path) return `Malformed ${what}: expected a JSON object`;
  if (issue.code === 'invalid_type' && (issue as any).input === undefined) return `Missing required field '${path}'`;
  return `Invalid field '${path}': ${issue.message}`;
}

/** Parses JSON text into a validated value or throws a 400 naming the problem. */
export function parseJson<T extends z.ZodType>(schema: T, raw: string, error: (status: number, msg: string) => ApiError, what = 'request body'): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw error(400, `Malformed ${what}: expected valid JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw error(400, `Malformed ${what}: expected a JSON object`);
  const r = schema.safeParse(value, { reportInput: true });
  if (!r.success) throw error(400, describeIssue(r.error, what));
  return r.data;
}
