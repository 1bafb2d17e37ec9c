// /login: email and password → session cookie → back to the page that asked for it (?next=).
import { useSubmit } from '../../components/use-submit.ts';
import { Brand } from '../../components/brand.tsx';
import { loc, navigate } from '../../router.ts';
import { api, signedIn } from '../../state/session.ts';

/** Only same-origin paths: an open redirect through ?next= would help phishing. */
export function nextPath(): string {
  const next = new URLSearchParams(loc.value.search).get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage() {
  const { error, busy, submit } = useSubmit(async (f) => {
    await api.auth.login(String(f.get('email')), String(f.get('password')));
    await signedIn();
    navigate(nextPath(), { replace: true });
  });
  const reg = loc.value.search ? `/register${loc.value.search}` : '/register';
  return (
    <div class="auth-wrap">
      <main class="auth-card card" id="main">
        <Brand />
        <h1>Log in</h1>
        {error && <div class="alert" role="alert">{error}</div>}
        <form onSubmit={submit}>
          <div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autoComplete="email" required /></div>
          <div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autoComplete="current-password" required /></div>
          <button class="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Logging in…' : 'Log in'}</button>
        </form>
        <p class="switch">No account yet? <a href={reg}>Create one</a></p>
      </main>
    </div>
  );
}
