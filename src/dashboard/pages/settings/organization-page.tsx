// /settings/organization: the organization's name and plan (owners may change them).
import { useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import { api, org, refreshMe } from '../../state/session.ts';

const PLANS: [string, string][] = [['maker', 'Maker — dashboard only'], ['startup', 'Startup — adds API keys'], ['agency', 'Agency — API keys, more sites']];

export function OrganizationPage() {
  const o = org.value!;
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | undefined>();
  const save = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    try {
      await api.orgs.patch(o.id, { name: String(f.get('name')).trim(), plan: String(f.get('plan')) });
      await refreshMe();
      setMsg({ ok: true, text: 'Saved.' });
    } catch (err) {
      setMsg({ ok: false, text: explain(err) });
    }
  };
  const owner = !o.role || o.role === 'owner';
  return (
    <div class="narrow">
      <h1>Organization</h1>
      <form class="card" onSubmit={save}>
        {msg && <div class={msg.ok ? 'notice' : 'alert'} role={msg.ok ? 'status' : 'alert'}>{msg.text}</div>}
        <div class="field"><label for="org-name">Name</label><input id="org-name" name="name" type="text" required maxLength={200} defaultValue={o.name} disabled={!owner} /></div>
        <div class="field">
          <label for="org-plan">Plan</label>
          <select id="org-plan" name="plan" defaultValue={o.plan} disabled={!owner}>{PLANS.map(([v, l]) => <option value={v} selected={v === o.plan}>{l}</option>)}</select>
          {!owner && <div class="hint">Only the organization's owner can change these.</div>}
        </div>
        <button type="submit" class="btn btn-primary" disabled={!owner}>Save</button>
      </form>
    </div>
  );
}
