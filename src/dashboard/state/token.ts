// A session token kept for this tab only when the server answered login with one instead of setting its
// HttpOnly cookie (servers before the cookie landed); with the cookie nothing is stored here.
const KEY = 'tern-session';

export function rememberToken(token: string | undefined): void {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // No storage: the cookie is the only credential.
  }
}

export function storedToken(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

const HINT = 'tern-signed-in';

/**
 * Whether this browser signed in and has not signed out: the HttpOnly cookie cannot be seen from script, and
 * asking /auth/me without one only produces a 401 (and a console error) on every visit to /login.
 */
export function maybeSignedIn(): boolean {
  try {
    return localStorage.getItem(HINT) === '1' || !!storedToken();
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
