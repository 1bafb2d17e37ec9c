// Calendar dates (YYYY-MM-DD) in a site's time zone, and day/month arithmetic on them (UTC-based, DST-proof).
export function todayIn(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

/** The current hour in a time zone, 0–23. */
export function hourIn(timeZone: string): number {
  try {
    return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
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
  return toDate(d).toLocaleDateString('en', { month: 'short', day: 'numeric', year: withYear ? 'numeric' : undefined, timeZone: 'UTC' });
}
export const fmtMonth = (d: string) => toDate(d).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
