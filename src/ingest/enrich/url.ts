// Page URL → hostname, path and the five utm_* campaign parameters.

export type PageUrl = {
  hostname: string | null;
  path: string | null;
  /** Query parameters, decoded; absent when the URL did not parse. */
  params: URLSearchParams | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
};

const MAX_PATH = 2000;
const MAX_UTM = 500;

const EMPTY: PageUrl = {
  hostname: null, path: null, params: null,
  utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null,
};

/** Lowercased host without a leading "www.": www.example.com and example.com are one site. */
export function normalizeHost(host: string): string {
  const h = host.toLowerCase();
  return h.startsWith('www.') ? h.slice(4) : h;
}

/**
 * The path exactly as sent: WHATWG URL parsing would percent-encode non-ASCII characters and
 * resolve "..", which makes stored paths differ from what the site owner sees in the address bar.
 */
export function rawPath(url: string): string {
  const authority = url.indexOf('//');
  const start = authority < 0 ? 0 : authority + 2;
  let end = url.length;
  for (const stop of ['?', '#']) {
    const i = url.indexOf(stop, start);
    if (i >= 0 && i < end) end = i;
  }
  const slash = url.indexOf('/', start);
  let path = slash >= 0 && slash < end ? url.slice(slash, end) : '/';
  // Hash routers (the tracker's data-hash mode) put the page in the fragment: keep `#/…` and `#!/…`.
  const hash = url.indexOf('#', start);
  if (hash >= 0 && (url.startsWith('#/', hash) || url.startsWith('#!/', hash))) {
    const q = url.indexOf('?', hash);
    path += url.slice(hash, q >= 0 ? q : url.length);
  }
  return path.length > MAX_PATH ? path.slice(0, MAX_PATH) : path;
}

/** A query parameter trimmed and capped; empty means absent. */
export function param(params: URLSearchParams | null, name: string, max = MAX_UTM): string | null {
  const v = params?.get(name)?.trim();
  if (!v) return null;
  return v.length > max ? v.slice(0, max) : v;
}

export function parsePageUrl(url: string): PageUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return EMPTY;
  }
  // Most page URLs carry no query; URLSearchParams is the costly part of parsing, so skip it then.
  const params = u.search.length > 1 ? u.searchParams : null;
  return {
    hostname: u.hostname ? normalizeHost(u.hostname) : null,
    path: rawPath(url),
    params,
    utm_source: param(params, 'utm_source'),
    utm_medium: param(params, 'utm_medium'),
    utm_campaign: param(params, 'utm_campaign'),
    utm_term: param(params, 'utm_term'),
    utm_content: param(params, 'utm_content'),
  };
}
