// Calendar dates (YYYY-MM-DD) in a site's time zone, and day/month arithmetic on them (UTC-based, DST-proof).

const formats = new Map<string, Intl.DateTimeFormat>();
/**
 * One Intl.DateTimeFormat per locale and options, built once: building one (what toLocaleDateString with options
 * does on every call too) loads the zone's and locale's ICU data, ~1–3 ms each time, and the dashboard formats on
 * every render (today's date, each chart label): ~50 ms of the browser's main thread per dashboard load.
 */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

/** `date` as toLocaleString(locale, options) writes it ("Invalid Date" too, where format would throw), with a kept formatter. */
export const fmtWith = (locale: string, options: Intl.DateTimeFormatOptions, date: Date) =>
  Number.isNaN(date.getTime()) ? 'Invalid Date' : dateFormat(locale, options).format(date);

export function todayIn(timeZone: string): string {
  try {
    return dateFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

/** The current hour in a time zone, 0–23. */
export function hourIn(timeZone: string): number {
  try {
    return Number(dateFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  } catch {
    return new Date().getUTCHours();
  }
}

const toDate = (d: string) => new Date(`${d}T00:00:00Z`);
const fromDate = (d: Date) => d.toISOString().slice(0, 10);

export const addDays = (d: string, n: number) => fromDate(new Date(toDate(d).getTime() + n * 86_400_000));

export function addMonths(d: string, n: number): string {
  const x = toDate(d);
  const day = x.getUTCDate();
  x.setUTCDate(1);
  x.setUTCMonth(x.getUTCMonth() + n);
  const last = new Date(Date.UTC(x.getUTCFullYear(), x.getUTCMonth() + 1, 0)).getUTCDate();
  x.setUTCDate(Math.min(day, last));
  return fromDate(x);
}

export const monthStart = (d: string) => `${d.slice(0, 7)}-01`;
export const monthEnd = (d: string) => addDays(addMonths(monthStart(d), 1), -1);
export const daysBetween = (a: string, b: string) => Math.round((toDate(b).getTime() - toDate(a).getTime()) / 86_400_000);

export function fmtDay(d: string, withYear = false): string {
  return fmtWith('en', withYear ? { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' } : { month: 'short', day: 'numeric', timeZone: 'UTC' }, toDate(d));
}
export const fmtMonth = (d: string) => fmtWith('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }, toDate(d));
