// Whether a browser request came from our own pages: the test that lets the session cookie count as a credential.
/**
 * 'same': Sec-Fetch-Site says same-origin (or none: typed into the address bar), or the Origin's host is
 * the request's Host. 'cross': either header names another site ('same-site' too: a sibling subdomain
 * is another party). 'unknown': neither header (a non-browser client, or an old browser on a plain GET).
 * Sec-Fetch-Site is set by the browser and cannot be forged by a page, so it is read first.
 */
export function requestOrigin(request: Request, trustProxy: boolean): 'same' | 'cross' | 'unknown' {
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site) return site === 'same-origin' || site === 'none' ? 'same' : 'cross';
  const origin = request.headers.get('origin');
  if (!origin) return 'unknown';
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return 'cross'; // "null" (a sandboxed frame, a redirect across sites) or garbage
  }
  const own = ownHosts(request, trustProxy);
  return own.includes(host) ? 'same' : 'cross';
}

/** The host names this request was addressed to: Host, and behind a trusted proxy X-Forwarded-Host. */
function ownHosts(request: Request, trustProxy: boolean): string[] {
  const hosts = [request.headers.get('host') ?? new URL(request.url).host];
  if (trustProxy) {
    const fwd = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
    if (fwd) hosts.push(fwd);
  }
  return hosts.map((h) => h.toLowerCase());
}

/** Methods that only read: a cross-site one carrying the cookie is answered as if it had none. */
export const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
