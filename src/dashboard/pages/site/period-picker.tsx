// The period picker: a menu of presets (with keyboard shortcuts), a custom range with the browser's calendar (two
// labelled date inputs) checked before it applies, ← and → to step.
import { useEffect, useRef, useState } from 'preact/hooks';
import { fmtDay } from '../../components/dates.ts';
import { label, PRESETS, rangeOf, step, type Period } from './period.ts';
import { setPeriod } from './query-state.ts';

export function PeriodPicker({ period, today }: { period: Period; today: string }) {
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState(false);
  const [rangeError, setRangeError] = useState<{ field: 'from' | 'to'; text: string } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const prev = step(period, -1, today);
  const next = step(period, 1, today);
  const r = rangeOf(period, today);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (e.metaKey || e.ctrlKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName) || document.querySelector('[aria-modal]')) return;
      if (e.key === 'ArrowLeft' && prev) { setPeriod(prev, today); e.preventDefault(); }
      else if (e.key === 'ArrowRight' && next) { setPeriod(next, today); e.preventDefault(); }
      else {
        const p = PRESETS.find((x) => x.key === e.key);
        if (p) { setPeriod(p.make(today), today); setOpen(false); }
      }
    };
    const onDown = (e: MouseEvent) => { if (!root.current?.contains(e.target as Node)) { setOpen(false); setCustom(false); } };
    addEventListener('keydown', onKey);
    addEventListener('mousedown', onDown);
    return () => { removeEventListener('keydown', onKey); removeEventListener('mousedown', onDown); };
  }, [period.period, period.date, period.from, period.to, today]);

  const choose = (p: Period) => { setPeriod(p, today); setOpen(false); setCustom(false); setRangeError(null); };
  const applyCustom = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const from = String(f.get('from') ?? ''), to = String(f.get('to') ?? '');
    // A date input gives '' for an incomplete or impossible date (Feb 30): one message covers both.
    const why: { field: 'from' | 'to'; text: string } | null = !from ? { field: 'from', text: 'Enter a complete start date.' }
      : !to ? { field: 'to', text: 'Enter a complete end date.' }
      : from > today ? { field: 'from', text: `The start date cannot be after today (${fmtDay(today, true)}).` }
      : to > today ? { field: 'to', text: `The end date cannot be after today (${fmtDay(today, true)}).` }
      : from > to ? { field: 'to', text: 'The end date must be on or after the start date.' }
      : null;
    setRangeError(why);
    if (why) (form.elements.namedItem(why.field) as HTMLInputElement | null)?.focus();
    else choose({ period: 'custom', date: today, from, to });
  };
  const invalid = (field: 'from' | 'to') => (rangeError?.field === field ? { 'aria-invalid': 'true' as const, 'aria-describedby': 'range-error' } : {});
  return (
    <div class="period" ref={root} onKeyDown={(e) => { if (e.key === 'Escape' && open) { e.stopPropagation(); setOpen(false); setCustom(false); toggle.current?.focus(); } }}>
      <button type="button" class="btn btn-icon" aria-label="Previous period" title="Previous period (←)" disabled={!prev} onClick={() => prev && setPeriod(prev, today)}>←</button>
      <button type="button" class="btn btn-icon" aria-label="Next period" title="Next period (→)" disabled={!next} onClick={() => next && setPeriod(next, today)}>→</button>
      <button type="button" ref={toggle} class="btn period-button" aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span>{label(period, today)}</span><span aria-hidden="true" class="caret">▾</span>
      </button>
      {open && (
        <div class="menu" role="group" aria-label="Choose a period">
          {PRESETS.map((p) => (
            <button type="button" class="menu-item" onClick={() => choose(p.make(today))} aria-keyshortcuts={p.key.toUpperCase()}>
              <span>{p.label}</span><kbd>{p.key.toUpperCase()}</kbd>
            </button>
          ))}
          <button type="button" class="menu-item" aria-expanded={custom} onClick={() => setCustom(!custom)}><span>Custom range…</span></button>
          {custom && (
            <form class="custom-range" onSubmit={applyCustom} noValidate aria-label="Custom range">
              <div class="field"><label for="range-from">From</label><input id="range-from" name="from" type="date" max={today} defaultValue={r?.from ?? today} required {...invalid('from')} /></div>
              <div class="field"><label for="range-to">To</label><input id="range-to" name="to" type="date" max={today} defaultValue={r?.to ?? today} required {...invalid('to')} /></div>
              {rangeError && <p id="range-error" class="range-error" role="alert">{rangeError.text}</p>}
              <button type="submit" class="btn btn-primary btn-sm">Apply</button>
            </form>
          )}
        </div>
      )}
    </div>
  );
}
