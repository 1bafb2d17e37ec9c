// One value of a breakdown column, formatted by its kind.
import { fmtDuration, fmtFull, fmtMoney, fmtNumber, fmtPercent } from '../../components/format.ts';
import type { Column } from './panel-defs.ts';

export function cellText(c: Column, v: unknown, exact = false): string {
  if (v === null || v === undefined) return '—';
  const n = Number(v);
  if (c.kind === 'duration') return fmtDuration(n);
  if (c.kind === 'percent' || c.kind === 'share') return fmtPercent(n);
  if (c.kind === 'money') return fmtMoney(n, c.currency ?? 'USD');
  return exact ? fmtFull(n) : fmtNumber(n);
}
