// Site settings → Export data: events or visits of a range as CSV, Parquet or NDJSON. The browser fetches
// GET …/export itself as a download (the session cookie goes with a same-origin request), so a large file streams
// to disk instead of through page memory; the form checks the range first, since an error would only show as a
// failed download.
import { useState } from 'preact/hooks';
import { addDays, fmtDay } from '../../components/dates.ts';
import { api } from '../../state/session.ts';

type Problem = { field: 'export-from' | 'export-to'; text: string };

export function ExportSection({ orgId, siteId, today }: { orgId: string; siteId: string; today: string }) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const [started, setStarted] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const from = String(f.get('from') ?? ''), to = String(f.get('to') ?? '');
    const fromEl = form.elements.namedItem('from') as HTMLInputElement, toEl = form.elements.namedItem('to') as HTMLInputElement;
    // A date input holds '' both when empty and when its date is incomplete: only the latter is a mistake.
    const why: Problem | null = !from && fromEl.validity.badInput ? { field: 'export-from', text: 'Enter a complete start date, or leave it empty for the first stored day.' }
      : !to && toEl.validity.badInput ? { field: 'export-to', text: 'Enter a complete end date, or leave it empty for today.' }
      : from && from > today ? { field: 'export-from', text: `The start date cannot be after today (${fmtDay(today, true)}).` }
      : to && from && from > to ? { field: 'export-to', text: 'The end date must be on or after the start date.' }
      : null;
    setProblem(why);
    if (why) { document.getElementById(why.field)?.focus(); setStarted(''); return; }
    const q = { table: String(f.get('table')), format: String(f.get('format')), from, to };
    const a = document.createElement('a');
    a.href = api.sites.exportUrl(orgId, siteId, Object.fromEntries(Object.entries(q).filter(([, v]) => v)) as typeof q);
    a.download = '';
    document.body.append(a);
    a.click();
    a.remove();
    setStarted(`Download of ${q.table} (${q.format.toUpperCase()}) started: ${from ? fmtDay(from, true) : 'the first stored day'} to ${fmtDay(to || today, true)}.`);
  };
  const invalid = (id: Problem['field']) => (problem?.field === id ? { 'aria-invalid': 'true' as const, 'aria-describedby': 'export-error' } : {});
  return (
    <section class="card" id="export" aria-labelledby="export-title">
      <h2 id="export-title">Export data</h2>
      <p class="muted">Raw rows of this site, one per event or per visit, with visitor ids, times in UTC and properties. Days are in the site's time zone.</p>
      <form class="export-form" onSubmit={submit} noValidate>
        <div class="field"><label for="export-table">Table</label>
          <select id="export-table" name="table"><option value="events">Events</option><option value="visits">Visits</option></select></div>
        <div class="field"><label for="export-from">From</label><input id="export-from" name="from" type="date" max={today} defaultValue={addDays(today, -29)} {...invalid('export-from')} /></div>
        <div class="field"><label for="export-to">To</label><input id="export-to" name="to" type="date" max={today} defaultValue={today} {...invalid('export-to')} /></div>
        <div class="field"><label for="export-format">Format</label>
          <select id="export-format" name="format"><option value="csv">CSV</option><option value="parquet">Parquet</option><option value="ndjson">NDJSON</option></select></div>
        <button type="submit" class="btn btn-primary">Download</button>
      </form>
      <p class="hint muted small spaced">Leave From empty to start at the first stored day, To empty to end today.</p>
      {problem && <div class="alert" id="export-error" role="alert">{problem.text}</div>}
      {started && <div class="notice" role="status">{started}</div>}
    </section>
  );
}
