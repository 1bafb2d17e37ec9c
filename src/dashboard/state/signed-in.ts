// Whether this browser signed in and has not signed out. The session itself is the HttpOnly tern_session cookie,
// which script cannot see; asking /auth/me without one would only produce a 401 (and a console error) on every
// visit to /login.
const HINT = 'tern-signed-in';

export function maybeSignedIn(): boolean {
  try {
    return localStorage.getItem(HINT) === '1';
  } catch {
    return true;
  }
}

export function markSignedIn(on: boolean): void {
  try {
    if (on) localStorage.setItem(HINT, '1');
    else localStorage.removeItem(HINT);
  } catch {
    // Without storage every visit asks /auth/me.
  }
}
