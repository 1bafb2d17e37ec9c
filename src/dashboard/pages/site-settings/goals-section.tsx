// Site settings → Goals: create (pageview path or custom event, optional value), edit, archive and unarchive.
import { useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import type { Goal } from '../../api/types.ts';
import { Modal } from '../../components/modal.tsx';
import { useData } from '../../components/use-data.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { api } from '../../state/session.ts';

function GoalForm({ goal, onSubmit, submitLabel }: { goal?: Goal; onSubmit: (g: Partial<Goal>) => Promise<void>; submitLabel: string }) {
  const [type, setType] = useState<Goal['type']>(goal?.type ?? 'pageview');
  const p = goal ? 'edit-goal' : 'goal';
  const { error, submit } = useSubmit(async (f, form) => {
    const value = String(f.get('value') ?? '').trim();
    const body: Partial<Goal> = { name: String(f.get('name')).trim(), ...(goal ? {} : { type }), value: value ? Number(value) : undefined };
    if (type === 'pageview') body.path = String(f.get('target')).trim(); else body.event_name = String(f.get('target')).trim();
    await onSubmit(body);
    if (!goal) form.reset();
  }, { settle: true });
  return (
    <form onSubmit={submit}>
      {error && <div class="alert" role="alert">{error}</div>}
      <div class="inline-form">
        <div class="field"><label for={`${p}-name`}>Goal name</label><input id={`${p}-name`} name="name" type="text" required defaultValue={goal?.name} /></div>
        <div class="field"><label for={`${p}-type`}>Type</label>
          <select id={`${p}-type`} value={type} disabled={!!goal} onChange={(e) => setType(e.currentTarget.value as Goal['type'])}><option value="pageview">Page visit</option><option value="event">Custom event</option></select></div>
        <div class="field"><label for={`${p}-target`}>{type === 'pageview' ? 'Page path' : 'Event name'}</label>
          <input id={`${p}-target`} name="target" type="text" required placeholder={type === 'pageview' ? '/signup or /blog/**' : 'Signup'} defaultValue={(type === 'pageview' ? goal?.path : goal?.event_name) ?? ''} /></div>
        <div class="field"><label for={`${p}-value`}>Value (optional)</label><input id={`${p}-value`} name="value" type="number" step="any" min="0" defaultValue={goal?.value ?? ''} /></div>
        <button type="submit" class="btn btn-primary">{submitLabel}</button>
      </div>
    </form>
  );
}

export function GoalsSection({ orgId, siteId }: { orgId: string; siteId: string }) {
  const goals = useData(() => api.goals.list(orgId, siteId, true), [siteId]);
  const [editing, setEditing] = useState<Goal | undefined>();
  const [error, setError] = useState('');
  const archive = async (g: Goal) => {
    try { await api.goals.archive(orgId, siteId, g.id, !g.archived); goals.reload(); } catch (err) { setError(explain(err)); }
  };
  return (
    <section class="card" id="goals" aria-labelledby="goals-title">
      <h2 id="goals-title">Goals</h2>
      <p class="muted">A goal counts visitors who reach a page (<code>*</code> matches one path segment, <code>**</code> any) or send a custom event.</p>
      <GoalForm submitLabel="Add goal" onSubmit={async (b) => { await api.goals.create(orgId, siteId, b); goals.reload(); }} />
      {(goals.error || error) && <div class="alert" role="alert">{goals.error || error}</div>}
      <ul class="list-rows spaced">
        {goals.data?.goals.map((g) => (
          <li>
            <span><strong>{g.name}</strong> <span class="muted">{g.type === 'pageview' ? `visits ${g.path}` : `event “${g.event_name}”`}{g.value ? ` · value ${g.value}` : ''}</span>{g.archived && <> <span class="badge">archived</span></>}</span>
            <span class="row-actions">
              <button type="button" class="btn btn-sm" onClick={() => setEditing(g)} aria-label={`Edit goal ${g.name}`}>Edit</button>
              <button type="button" class="btn btn-sm" onClick={() => archive(g)} aria-label={`${g.archived ? 'Unarchive' : 'Archive'} goal ${g.name}`}>{g.archived ? 'Unarchive' : 'Archive'}</button>
            </span>
          </li>
        ))}
        {goals.data?.goals.length === 0 && <li class="muted">No goals yet.</li>}
      </ul>
      {editing && (
        <Modal title={`Edit goal “${editing.name}”`} onClose={() => setEditing(undefined)}>
          <GoalForm goal={editing} submitLabel="Save goal" onSubmit={async (b) => { await api.goals.patch(orgId, siteId, editing.id, b); setEditing(undefined); goals.reload(); }} />
        </Modal>
      )}
    </section>
  );
}
