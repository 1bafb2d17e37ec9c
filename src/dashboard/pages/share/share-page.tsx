// /share/<token>: a shared link's read-only dashboard (no settings), after a password form when the link has one;
// ?embed=true drops the page chrome for an iframe, ?theme=light|dark picks the theme.
import { useMemo, useState } from 'preact/hooks';
import { createClient, explain } from '../../api/client.ts';
import type { Site } from '../../api/types.ts';
import { Brand } from '../../components/brand.tsx';
import { ThemeToggle } from '../../components/theme-toggle.tsx';
import { useData } from '../../components/use-data.ts';
import { loc } from '../../router.ts';
import { applyTheme } from '../../state/theme.ts';
import { DashboardView } from '../site/dashboard-view.tsx';

const unlockKey = (token: string) => `tern-share-${token.slice(-8)}`;

function readUnlocked(token: string): string | undefined {
  try { return sessionStorage.getItem(unlockKey(token)) ?? undefined; } catch { return undefined; }
}

function PasswordForm({ token, onUnlocked }: { token: string; onUnlocked: (t: string) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await createClient().share.unlock(token, String(new FormData(e.currentTarget as HTMLFormElement).get('password')));
      try { sessionStorage.setItem(unlockKey(token), r.token); } catch { /* lasts for this page only */ }
      onUnlocked(r.token);
    } catch (err) {
      setError(explain(err));
      setBusy(false);
    }
  };
  return (
    <div class="auth-wrap">
      <main class="auth-card card" id="main">
        <Brand href={location.pathname} />
        <h1>This dashboard is protected</h1>
        <p class="muted">Enter the password you were given with the link.</p>
        {error && <div class="alert" role="alert">{error}</div>}
        <form onSubmit={submit}>
          <div class="field"><label for="share-password">Password</label><input id="share-password" name="password" type="password" required autoComplete="current-password" /></div>
          <button class="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Checking…' : 'View dashboard'}</button>
        </form>
      </main>
    </div>
  );
}

export function SharePage({ params }: { params: string[] }) {
  const token = params[0]!;
  const q = new URLSearchParams(loc.value.search);
  const embed = q.get('embed') === 'true';
  const theme = q.get('theme');
  if (theme === 'light' || theme === 'dark') applyTheme(theme);
  const [session, setSession] = useState<string | undefined>(() => readUnlocked(token));
  const info = useData(() => createClient().share.info(token), [token]);
  const api = useMemo(() => createClient({ bearer: () => session ?? token }), [token, session]);
  if (info.error) {
    return (
      <div class="auth-wrap"><main class="auth-card card" id="main"><h1>Link not available</h1><p role="alert">{info.error.startsWith('Not found') ? 'This shared link does not exist or was revoked.' : info.error}</p></main></div>
    );
  }
  if (!info.data) return <div class="empty">Loading…</div>;
  if (info.data.password_required && !session) return <PasswordForm token={token} onUnlocked={setSession} />;
  const site: Site = { public_id: '', created_at: '', ...info.data.site };
  const view = <DashboardView scope={{ api, orgId: info.data.organization_id, site, shared: true, base: `/share/${token}`, embed }} />;
  if (embed) return <main class="embed" id="main">{view}</main>;
  return (
    <div class="shell">
      <header class="topnav"><div class="topnav-inner"><Brand href={location.pathname} /><span class="muted share-note">Shared dashboard of {site.domain}</span><span class="grow" /><ThemeToggle /></div></header>
      <main id="main">{view}</main>
      <footer class="footer">Web analytics by Tern · read-only view</footer>
    </div>
  );
}
