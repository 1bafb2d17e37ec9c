// Security headers of the dashboard's HTML pages (a stand-in until src/http/page-headers.ts lands).
export function pageHeaders(opts: { embed: boolean }): Record<string, string> {
  return {
    'content-security-policy': `default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; ` +
      `base-uri 'none'; form-action 'self'; object-src 'none'; frame-ancestors ${opts.embed ? '*' : "'none'"}`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    ...(opts.embed ? {} : { 'x-frame-options': 'DENY' }),
  };
}
