// Calendar arithmetic on 'YYYY-MM-DD' dates and wall-clock ↔ UTC conversion in an IANA zone (Intl, DST-aware).

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first year a date may name: web analytics has nothing earlier (events are refused before it too). */
const FIRST_YEAR = 1970;
/** What a date parameter that isDate refuses should have been: the one wording of every such 400. */
export const DATE_EXPECTED = `expected a calendar date YYYY-MM-DD from ${FIRST_YEAR} on`;

/**
 * True for a real calendar date written YYYY-MM-DD (rejects 2026-02-30) from FIRST_YEAR on: Intl writes years
 * before 1000 without their leading zeros and Date.UTC reads 0–99 as 1900–1999, which the arithmetic below assumes not.
 */
export function isDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m || +m[1] < FIRST_YEAR) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

const toUtcDay = (s: string) => Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10));
const fromUtcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (s: string, n: number) => fromUtcDay(toUtcDay(s) + n * 86_400_000);

/** Whole days from a to b (b − a). */
export const daysBetween = (a: string, b: string) => Math.round((toUtcDay(b) - toUtcDay(a)) / 86_400_000);

/** Shift by whole months, clamping the day (Mar 31 − 1 month = Feb 28/29). */
export function addMonths(s: string, n: number): string {
  const y = +s.slice(0, 4), m = +s.slice(5, 7) - 1 + n, d = +s.slice(8, 10);
  const first = new Date(Date.UTC(y, m, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return fromUtcDay(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last)));
}

export const monthStart = (s: string) => s.slice(0, 8) + '01';
export const monthEnd = (s: string) => addDays(addMonths(monthStart(s), 1), -1);

const partsFormat = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string) {
  let f = partsFormat.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    partsFormat.set(tz, f);
  }
  return f;
}

/** Wall-clock fields of an instant in zone tz. */
export function wallClock(ms: number, tz: string) {
  const p: Record<string, string> = {};
  for (const { type, value } of formatter(tz).formatToParts(new Date(ms))) p[type] = value;
  return { date: `${p.year}-${p.month}-${p.day}`, hour: p.hour, minute: p.minute, second: p.second };
}

/** The zone's offset from UTC at an instant, in ms (Berlin summer: +7,200,000). */
export function offsetAt(ms: number, tz: string): number {
  const w = wallClock(ms, tz);
  const asUtc = Date.UTC(+w.date.slice(0, 4), +w.date.slice(5, 7) - 1, +w.date.slice(8, 10), +w.hour, +w.minute, +w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant at which `date` begins in zone tz. Two passes settle the offset on either side of a DST
 * change; if midnight itself is skipped (zones that jump at 00:00) the day begins at the first valid instant.
 */
export function startOfDayUtc(date: string, tz: string): number {
  const wall = toUtcDay(date);
  let t = wall - offsetAt(wall, tz);
  t = wall - offsetAt(t, tz);
  if (wallClock(t, tz).date < date) t += 3_600_000;
  return t;
}

/**
 * The zone's UTC offsets over [fromMs, toMs): the offset at the start and every change after it
 * (DST), each change located to the second. Sampled daily, so zones changing twice within one day
 * would be missed — none do.
 */
export function offsetChanges(fromMs: number, toMs: number, tz: string): { at: number; offset: number }[] {
  const out = [{ at: fromMs, offset: offsetAt(fromMs, tz) }];
  for (let t = fromMs; t < toMs; ) {
    const next = Math.min(t + 86_400_000, toMs);
    const o = offsetAt(next, tz);
    if (o !== out[out.length - 1]!.offset) {
      let lo = t, hi = next;
      while (hi - lo > 1000) {
        const mid = Math.floor((lo + hi) / 2000) * 1000;
        if (offsetAt(mid, tz) === o) hi = mid; else lo = mid;
      }
      out.push({ at: hi, offset: o });
    }
    t = next;
  }
  return out;
}

export const todayIn = (tz: string, now = Date.now()) => wallClock(now, tz).date;

export const iso = (ms: number) => new Date(ms).toISOString();
