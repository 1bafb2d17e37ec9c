// Site settings → Shared links: read-only dashboard links, optionally password-protected; the link is shown once.
import { useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import type { SharedLink } from '../../api/types.ts';
import { Confirm } from '../../components/confirm.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { fmtDate } from '../../components/format.ts';
import { useData } from '../../components/use-data.ts';
import { api } from '../../state/session.ts';

export function SharedLinksSection({ orgId, siteId }: { orgId: string; siteId: string }) {
  const links = useData(() => api.sharedLinks.list(orgId, siteId), [siteId]);
  const [created, setCreated] = useState<SharedLink | undefined>();
  const [revoking, setRevoking] = useState<SharedLink | undefined>();
  const [error, setError] = useState('');
  const create = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const password = String(f.get('password') ?? '');
    try {
      setCreated(await api.sharedLinks.create(orgId, siteId, { name: String(f.get('name')).trim() || 'Shared link', password: password || undefined }));
      form.reset();
      setError('');
      links.reload();
    } catch (err) {
      setError(explain(err));
    }
  };
  const url = created?.url ? `${location.origin}${created.url}` : '';
  return (
    <section class="card" id="shared-links" aria-labelledby="shared-title">
      <h2 id="shared-title">Shared links</h2>
      <p class="muted">Anyone with a link sees this dashboard read-only, without settings. Add <code>?embed=true</code> (and <code>&amp;theme=light|dark</code>) to put it in an iframe.</p>
      {created && (
        <div class="key-once notice" role="status">
          <p><strong>Copy the link now: it is not shown again.</strong></p>
          <div class="key-box"><code id="new-link">{url}</code><CopyButton text={url} label="Copy link" /></div>
        </div>
      )}
      <form class="inline-form" onSubmit={create}>
        <div class="field"><label for="link-name">Name</label><input id="link-name" name="name" type="text" maxLength={100} placeholder="Investors" /></div>
        <div class="field"><label for="link-password">Password (optional)</label><input id="link-password" name="password" type="password" minLength={8} autoComplete="new-password" /></div>
        <button type="submit" class="btn btn-primary">Create link</button>
      </form>
      {(error || links.error) && <div class="alert spaced" role="alert">{error || links.error}</div>}
      <ul class="list-rows spaced">
        {links.data?.shared_links.map((l) => (
          <li><span><strong>{l.name ?? 'Shared link'}</strong> <code class="muted">{l.token_preview}</code> <span class="muted">· {fmtDate(l.created_at)}</span>{l.has_password && <> <span class="badge">password</span></>}</span>
            <button type="button" class="btn btn-sm" onClick={() => setRevoking(l)} aria-label={`Revoke link ${l.name ?? ''}`}>Revoke</button></li>
        ))}
        {links.data?.shared_links.length === 0 && <li class="muted">No shared links.</li>}
      </ul>
      {revoking && (
        <Confirm title="Revoke shared link" message={`Revoke “${revoking.name ?? 'Shared link'}”? Everyone using it loses access at once.`} action="Revoke link"
          onClose={() => setRevoking(undefined)} onConfirm={async () => { await api.sharedLinks.remove(orgId, siteId, revoking.id); setRevoking(undefined); links.reload(); }} />
      )}
    </section>
  );
}
