// Number, duration, percentage, money and date formatting shared by every page.
import { fmtWith } from './dates.ts';
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const full = new Intl.NumberFormat('en');

export const fmtNumber = (n: number) => (Math.abs(n) >= 10_000 ? compact.format(n) : full.format(Math.round(n * 100) / 100));
export const fmtFull = (n: number) => full.format(n);
export const fmtPercent = (n: number) => `${Math.round(n * 10) / 10}%`;

export function fmtDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** Built once per currency and cents (building an Intl formatter costs ~1 ms; every card and row formats). */
const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string, cents: boolean): Intl.NumberFormat {
  const key = `${currency} ${cents}`;
  let f = moneyFormats.get(key);
  if (!f) moneyFormats.set(key, (f = new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: cents ? 2 : 0, maximumFractionDigits: cents ? 2 : 0 })));
  return f;
}

/**
 * Every amount on every page (cards, chart, goals, visitors, shared views) goes through this one rule: cents only
 * when there are any ($196, $49.50, $1,225), so the same sum never reads two ways.
 */
export function fmtMoney(n: number, currency: string): string {
  const cents = Math.round(n * 100) % 100 !== 0;
  try {
    return moneyFormat(currency, cents).format(n);
  } catch {
    return `${cents ? n.toFixed(2) : Math.round(n)} ${currency}`;
  }
}

export const fmtDateTime = (iso: string) => fmtWith('en', { dateStyle: 'medium', timeStyle: 'short' }, new Date(iso));
export const fmtDate = (iso: string) => fmtWith('en', { dateStyle: 'medium' }, new Date(iso));
