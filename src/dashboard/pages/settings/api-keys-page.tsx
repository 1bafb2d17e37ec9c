// /settings/api-keys: create a key (name, scope checkboxes, optional expiry) shown once with a copy button and a
// warning; the masked list; revoke with confirmation.
import { useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import type { ApiKey } from '../../api/types.ts';
import { Confirm } from '../../components/confirm.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { fmtDate, fmtDateTime } from '../../components/format.ts';
import { useData } from '../../components/use-data.ts';
import { api, org } from '../../state/session.ts';

export const SCOPES = ['analytics:read', 'sites:read', 'goals:read', 'goals:write', 'funnels:read', 'funnels:write', 'annotations:read', 'annotations:write', 'visitors:read'];

export function ApiKeysPage() {
  const o = org.value!;
  const keys = useData(() => api.keys.list(o.id), [o.id]);
  const [created, setCreated] = useState<ApiKey | undefined>();
  const [revoking, setRevoking] = useState<ApiKey | undefined>();
  const [error, setError] = useState('');
  const create = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const scopes = f.getAll('scope').map(String);
    const expiry = String(f.get('expires') ?? '');
    setError('');
    if (!scopes.length) { setError('Choose at least one scope.'); return; }
    try {
      setCreated(await api.keys.create(o.id, { name: String(f.get('name')).trim(), scopes, expires_at: expiry ? new Date(`${expiry}T23:59:59`).toISOString() : undefined }));
      form.reset();
      keys.reload();
    } catch (err) {
      setError(explain(err));
    }
  };
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <div class="stack">
      <h1>API keys</h1>
      {o.plan === 'maker' && <div class="notice">Keys work with the Startup plan or higher; on Maker, requests made with them answer 402. Change the plan under <a href="/settings/organization">Organization</a>.</div>}
      {created && (
        <div class="card key-once" role="status">
          <h2>Your new key “{created.name}”</h2>
          <p><strong>Copy it now: it will not be shown again.</strong> Store it somewhere safe; anyone with it can read your data.</p>
          <div class="key-box"><code id="new-key">{created.key}</code><CopyButton text={created.key!} label="Copy key" /></div>
          <button type="button" class="btn btn-sm spaced" onClick={() => setCreated(undefined)}>I have stored it</button>
        </div>
      )}
      <form class="card" onSubmit={create}>
        <h2>Create a key</h2>
        {error && <div class="alert" role="alert">{error}</div>}
        <div class="field"><label for="key-name">Name</label><input id="key-name" name="name" type="text" required maxLength={200} placeholder="e.g. Reporting script" /></div>
        <fieldset class="scopes">
          <legend>Scopes</legend>
          {SCOPES.map((s) => <label class="check"><input type="checkbox" name="scope" value={s} defaultChecked={s === 'analytics:read'} /> <code>{s}</code></label>)}
        </fieldset>
        <div class="field"><label for="key-expires">Expires (optional)</label><input id="key-expires" name="expires" type="date" min={tomorrow} /><div class="hint">Leave empty for a key that does not expire.</div></div>
        <button type="submit" class="btn btn-primary">Create key</button>
      </form>
      <div class="card flush">
        <h2 class="pad">Keys</h2>
        {keys.error && <div class="alert" role="alert">{keys.error}</div>}
        <div class="table-scroll">
          <table class="data">
            <thead><tr><th>Name</th><th>Key</th><th>Scopes</th><th>Created</th><th>Expires</th><th>Last used</th><th><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {keys.data?.api_keys.map((k) => (
                <tr>
                  <td>{k.name}{k.status === 'expired' && <> <span class="badge">expired</span></>}</td>
                  <td><code>{k.key_preview}</code></td>
                  <td><div class="scope-list">{k.scopes.map((s) => <span class="badge">{s}</span>)}</div></td>
                  <td>{fmtDate(k.created_at)}</td>
                  <td>{k.expires_at ? fmtDate(k.expires_at) : 'Never'}</td>
                  <td>{k.last_used_at ? fmtDateTime(k.last_used_at) : 'Never'}</td>
                  <td><button type="button" class="btn btn-sm" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>Revoke</button></td>
                </tr>
              ))}
              {keys.data?.api_keys.length === 0 && <tr><td colSpan={7} class="empty">No keys yet.</td></tr>}
            </tbody>
          </table>
        </div>
      </div>
      {revoking && (
        <Confirm title="Revoke key" message={`Revoke “${revoking.name}” (${revoking.key_preview})? Requests using it fail at once; this cannot be undone.`} action="Revoke key"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => { await api.keys.revoke(o.id, revoking.id); setRevoking(undefined); keys.reload(); }} />
      )}
    </div>
  );
}
