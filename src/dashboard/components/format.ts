// Number, duration, percentage, money and date formatting shared by every page.
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

/**
 * Every amount on every page (cards, chart, goals, visitors, shared views) goes through this one rule: cents only
 * when there are any ($196, $49.50, $1,225), so the same sum never reads two ways.
 */
export function fmtMoney(n: number, currency: string): string {
  const cents = Math.round(n * 100) % 100 !== 0;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: cents ? 2 : 0, maximumFractionDigits: cents ? 2 : 0 }).format(n);
  } catch {
    return `${cents ? n.toFixed(2) : Math.round(n)} ${currency}`;
  }
}

export const fmtDateTime = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
export const fmtDate = (iso: string) => new Date(iso).toLocaleDateString('en', { dateStyle: 'medium' });
