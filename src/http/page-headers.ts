// Security headers for every HTML page the server sends (the dashboard, shared links, /docs).
/**
 * A strict Content-Security-Policy: everything from our own origin, no inline script or style, no
 * plug-ins, forms post only to us. `embed`: a shared link's ?embed=true page, which any site may frame;
 * every other page refuses to be framed (frame-ancestors and the older X-Frame-Options alike).
 * `extra` adds sources to a directive, for a page that needs more (the API reference's inline styles).
 */
export function pageHeaders(opts: { embed?: boolean; extra?: Partial<Record<Directive, string>> } = {}): Record<string, string> {
  const directives: Record<Directive, string> = {
    'default-src': "'self'",
    'script-src': "'self'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'font-src': "'self'",
    'connect-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'none'",
    'form-action': "'self'",
    'frame-ancestors': opts.embed ? '*' : "'none'",
  };
  for (const [k, v] of Object.entries(opts.extra ?? {})) directives[k as Directive] += ` ${v}`;
  const headers: Record<string, string> = {
    'Content-Security-Policy': Object.entries(directives).map(([k, v]) => `${k} ${v}`).join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
  if (!opts.embed) headers['X-Frame-Options'] = 'DENY';
  return headers;
}

type Directive = 'default-src' | 'script-src' | 'style-src' | 'img-src' | 'font-src' | 'connect-src' | 'object-src' | 'base-uri' | 'form-action' | 'frame-ancestors';
