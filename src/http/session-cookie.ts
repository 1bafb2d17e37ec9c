// The dashboard's session cookie: its name, the Set-Cookie lines that set and clear it, and reading it back.
export const SESSION_COOKIE = 'tern_session';
/** As long as the session it carries (accounts/sessions.ts). */
const MAX_AGE_S = 30 * 24 * 3600;

/** Whether the request reached us over HTTPS; behind a trusted proxy its X-Forwarded-Proto says so. */
export function cameOverHttps(request: Request, trustProxy: boolean): boolean {
  if (trustProxy) {
    const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (proto) return proto === 'https';
  }
  return new URL(request.url).protocol === 'https:';
}

// HttpOnly: page scripts never see it. SameSite=Strict: a browser does not send it along from another site.
const attributes = (secure: boolean) => `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

export const setSessionCookie = (token: string, secure: boolean) => `${SESSION_COOKIE}=${token}; ${attributes(secure)}; Max-Age=${MAX_AGE_S}`;

export const clearSessionCookie = (secure: boolean) => `${SESSION_COOKIE}=; ${attributes(secure)}; Max-Age=0`;

/** The cookie's value from the request's Cookie header, if any. */
export function sessionCookieOf(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (value) return value;
  }
  return undefined;
}
