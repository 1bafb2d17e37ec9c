// /register: name, email, password → a new account and organization, signed in → the next page (default: add a site).
import { useSubmit } from '../../components/use-submit.ts';
import { Brand } from '../../components/brand.tsx';
import { loc, navigate } from '../../router.ts';
import { api, signedIn } from '../../state/session.ts';
import { nextPath } from '../login/login-page.tsx';

export function RegisterPage() {
  const { error, busy, submit } = useSubmit(async (f) => {
    const name = String(f.get('name') ?? '').trim();
    await api.auth.register(String(f.get('email')), String(f.get('password')), name || undefined);
    await signedIn();
    const next = nextPath();
    navigate(next === '/' ? '/sites/new' : next, { replace: true });
  });
  return (
    <div class="auth-wrap">
      <main class="auth-card card" id="main">
        <Brand />
        <h1>Create your account</h1>
        {error && <div class="alert" role="alert">{error}</div>}
        <form onSubmit={submit}>
          <div class="field"><label for="name">Name</label><input id="name" name="name" type="text" autoComplete="name" /></div>
          <div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autoComplete="email" required /></div>
          <div class="field">
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required aria-describedby="password-hint" />
            <div class="hint" id="password-hint">At least 8 characters.</div>
          </div>
          <button class="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create account'}</button>
        </form>
        <p class="switch">Already have an account? <a href={loc.value.search ? `/login${loc.value.search}` : '/login'}>Log in</a></p>
      </main>
    </div>
  );
}
