// Site settings → Funnels: create and edit (2–8 ordered steps of page, event or goal, and a window), delete.
import { useState } from 'preact/hooks';
import type { Funnel, FunnelStep } from '../../api/types.ts';
import { Confirm } from '../../components/confirm.tsx';
import { Modal } from '../../components/modal.tsx';
import { useData } from '../../components/use-data.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { api } from '../../state/session.ts';

const WINDOWS: [string, string][] = [['session', 'Within one visit'], ['1h', 'Within 1 hour'], ['1d', 'Within 1 day'], ['7d', 'Within 7 days'], ['30d', 'Within 30 days']];

function FunnelForm({ funnel, onSubmit, submitLabel }: { funnel?: Funnel; onSubmit: (f: Omit<Funnel, 'id' | 'created_at'>) => Promise<void>; submitLabel: string }) {
  const blank = (): FunnelStep => ({ type: 'pageview', value: '' });
  const [steps, setSteps] = useState<FunnelStep[]>(funnel?.steps.map((s) => ({ ...s })) ?? [blank(), blank()]);
  const p = funnel ? 'edit-funnel' : 'funnel';
  const set = (i: number, s: Partial<FunnelStep>) => setSteps(steps.map((x, j) => (j === i ? { ...x, ...s } : x)));
  const { error, submit } = useSubmit(async (f, form) => {
    await onSubmit({ name: String(f.get('name')).trim(), window: String(f.get('window')), steps: steps.map((s) => ({ type: s.type, value: s.value.trim() })) });
    if (!funnel) { form.reset(); setSteps([blank(), blank()]); }
  }, { settle: true });
  return (
    <form onSubmit={submit}>
      {error && <div class="alert" role="alert">{error}</div>}
      <div class="inline-form">
        <div class="field"><label for={`${p}-name`}>Funnel name</label><input id={`${p}-name`} name="name" type="text" required defaultValue={funnel?.name} /></div>
        <div class="field"><label for={`${p}-window`}>Window</label>
          <select id={`${p}-window`} name="window" defaultValue={funnel?.window ?? 'session'}>{WINDOWS.map(([v, l]) => <option value={v} selected={v === (funnel?.window ?? 'session')}>{l}</option>)}</select></div>
      </div>
      <ol class="plain spaced">
        {steps.map((s, i) => (
          <li class="step-row">
            <div class="field"><label for={`${p}-step-${i}-type`}>Step {i + 1}</label>
              <select id={`${p}-step-${i}-type`} value={s.type} onChange={(e) => set(i, { type: e.currentTarget.value as FunnelStep['type'] })}>
                <option value="pageview">Page</option><option value="event">Event</option><option value="goal">Goal ID</option></select></div>
            <div class="field"><label for={`${p}-step-${i}-value`}>{s.type === 'pageview' ? 'Path' : s.type === 'event' ? 'Event name' : 'Goal ID'} of step {i + 1}</label>
              <input id={`${p}-step-${i}-value`} type="text" required value={s.value} onInput={(e) => set(i, { value: e.currentTarget.value })} placeholder={s.type === 'pageview' ? '/pricing' : ''} /></div>
            <button type="button" class="btn btn-sm" disabled={steps.length <= 2} onClick={() => setSteps(steps.filter((_, j) => j !== i))} aria-label={`Remove step ${i + 1}`}>Remove</button>
          </li>
        ))}
      </ol>
      <div class="row-actions">
        <button type="button" class="btn btn-sm" disabled={steps.length >= 8} onClick={() => setSteps([...steps, blank()])}>+ Add step</button>
        <button type="submit" class="btn btn-primary">{submitLabel}</button>
      </div>
    </form>
  );
}

export function FunnelsSection({ orgId, siteId }: { orgId: string; siteId: string }) {
  const funnels = useData(() => api.funnels.list(orgId, siteId), [siteId]);
  const [editing, setEditing] = useState<Funnel | undefined>();
  const [deleting, setDeleting] = useState<Funnel | undefined>();
  return (
    <section class="card" id="funnels" aria-labelledby="funnels-title">
      <h2 id="funnels-title">Funnels</h2>
      <FunnelForm submitLabel="Create funnel" onSubmit={async (b) => { await api.funnels.create(orgId, siteId, b); funnels.reload(); }} />
      {funnels.error && <div class="alert" role="alert">{funnels.error}</div>}
      <ul class="list-rows spaced">
        {funnels.data?.funnels.map((f) => (
          <li>
            <span><a href={`/sites/${siteId}/funnels/${f.id}`}><strong>{f.name}</strong></a> <span class="muted">{f.steps.map((s) => s.label ?? s.value).join(' → ')}</span></span>
            <span class="row-actions">
              <button type="button" class="btn btn-sm" onClick={() => setEditing(f)} aria-label={`Edit funnel ${f.name}`}>Edit</button>
              <button type="button" class="btn btn-sm" onClick={() => setDeleting(f)} aria-label={`Delete funnel ${f.name}`}>Delete</button>
            </span>
          </li>
        ))}
        {funnels.data?.funnels.length === 0 && <li class="muted">No funnels yet.</li>}
      </ul>
      {editing && (
        <Modal title={`Edit funnel “${editing.name}”`} onClose={() => setEditing(undefined)} wide>
          <FunnelForm funnel={editing} submitLabel="Save funnel" onSubmit={async (b) => { await api.funnels.patch(orgId, siteId, editing.id, b); setEditing(undefined); funnels.reload(); }} />
        </Modal>
      )}
      {deleting && (
        <Confirm title="Delete funnel" message={`Delete the funnel “${deleting.name}”? Its definition is removed; events are kept.`} action="Delete funnel"
          onClose={() => setDeleting(undefined)} onConfirm={async () => { await api.funnels.remove(orgId, siteId, deleting.id); setDeleting(undefined); funnels.reload(); }} />
      )}
    </section>
  );
}
