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
