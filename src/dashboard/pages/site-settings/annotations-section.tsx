// Site settings → Annotations: notes on a date, drawn as markers on the dashboard chart.
import { useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import { fmtDay } from '../../components/dates.ts';
import { useData } from '../../components/use-data.ts';
import { api } from '../../state/session.ts';

export function AnnotationsSection({ orgId, siteId, today }: { orgId: string; siteId: string; today: string }) {
  const list = useData(() => api.annotations.list(orgId, siteId), [siteId]);
  const [error, setError] = useState('');
  const add = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    try {
      await api.annotations.create(orgId, siteId, { date: String(f.get('date')), text: String(f.get('text')).trim() });
      form.reset();
      setError('');
      list.reload();
    } catch (err) {
      setError(explain(err));
    }
  };
  const remove = async (id: string) => {
    try { await api.annotations.remove(orgId, siteId, id); list.reload(); } catch (err) { setError(explain(err)); }
  };
  return (
    <section class="card" id="annotations" aria-labelledby="annotations-title">
      <h2 id="annotations-title">Annotations</h2>
      <form class="inline-form" onSubmit={add}>
        <div class="field"><label for="annotation-date">Date</label><input id="annotation-date" name="date" type="date" required defaultValue={today} /></div>
        <div class="field wide"><label for="annotation-text">Note</label><input id="annotation-text" name="text" type="text" required maxLength={500} placeholder="Launched the new pricing page" /></div>
        <button type="submit" class="btn btn-primary">Add note</button>
      </form>
      {(error || list.error) && <div class="alert spaced" role="alert">{error || list.error}</div>}
      <ul class="list-rows spaced">
        {[...(list.data?.annotations ?? [])].sort((a, b) => b.date.localeCompare(a.date)).map((a) => (
          <li><span><strong>{fmtDay(a.date, true)}</strong> {a.text}</span>
            <button type="button" class="btn btn-sm" onClick={() => remove(a.id)} aria-label={`Delete note of ${a.date}`}>Delete</button></li>
        ))}
        {list.data?.annotations.length === 0 && <li class="muted">No notes yet.</li>}
      </ul>
    </section>
  );
}
