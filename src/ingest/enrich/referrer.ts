// Referrer URL + campaign tags on the landing URL → the visit's traffic source ("Google",
// "Newsletter", "blog.example.org"), with self-referrals dropped.
import { domainToASCII } from 'node:url';
import QuickLRU from 'quick-lru';
import { sourceForHost, sourceForTag } from './known-sources.ts';
import { normalizeHost, param } from './url.ts';

const MAX_REFERRER = 2000;

export type SourceInput = {
  referrer: string | null | undefined;
  /** Query parameters of the page URL. */
  params: URLSearchParams | null;
  /** Hostname of the page itself (normalized). */
  pageHost: string | null;
  /** The site's configured domain: it and its subdomains never count as a source. */
  siteDomain: string;
};

export type SourceInfo = { referrer: string | null; source: string | null };

/** Trimmed referrer as stored; empty → null. */
export function cleanReferrer(referrer: string | null | undefined): string | null {
  const r = referrer?.trim();
  if (!r) return null;
  return r.length > MAX_REFERRER ? r.slice(0, MAX_REFERRER) : r;
}

// Development and preview hosts: a link from them is the owner testing, not traffic.
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Punycode form, as WHATWG URL gives the page host: "münchen.de" → "xn--mnchen-3ya.de". */
const ascii = (host: string) => (/[^\x00-\x7f]/.test(host) ? domainToASCII(host) || host : host);

/** A site's domain as referrer hosts are compared with it; sites are few and their domains rarely change. */
const siteHosts = new Map<string, string>();
function siteHost(siteDomain: string): string {
  let h = siteHosts.get(siteDomain);
  if (h === undefined) {
    if (siteHosts.size >= 10_000) siteHosts.clear();
    siteHosts.set(siteDomain, (h = ascii(normalizeHost(siteDomain))));
  }
  return h;
}

function isOwnHost(asciiHost: string, pageHost: string | null, siteDomain: string): boolean {
  const site = siteHost(siteDomain);
  return asciiHost === site || asciiHost.endsWith(`.${site}`) || asciiHost === pageHost || LOCAL_HOSTS.has(asciiHost);
}

// scheme://[userinfo@]host — the host as written (not punycoded), found without a full URL parse.
const ORIGIN = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i;

/** What a referrer says on its own: its host (punycoded, for the self-referral test) and the source it names. */
type Referring = { host: string; source: string } | null;

/** Whether a referrer names a source, before the self-referral test; null for non-web referrers. */
function referring(referrer: string): Referring {
  const m = ORIGIN.exec(referrer);
  if (!m || !m[2]) return null;
  const scheme = m[1]!.toLowerCase();
  const app = scheme === 'android-app';
  if (!app && scheme !== 'http' && scheme !== 'https') return null;
  const host = normalizeHost(m[2]);
  return { host: ascii(host), source: sourceForHost(host) ?? (app ? `android-app://${host}` : host) };
}

// Referrers repeat (a site's own pages, the big search engines and networks): their parse was most of the
// source resolution on the event route's thread. Long ones are parsed each time, so the keys stay small.
const referrers = new QuickLRU<string, Referring>({ maxSize: 5_000 });
const CACHED_REFERRER_LENGTH = 300;

/** Source named by the referring URL, or null for none, self-referrals and non-web referrers. */
function referrerSource(referrer: string, pageHost: string | null, siteDomain: string): string | null {
  let r = referrer.length > CACHED_REFERRER_LENGTH ? referring(referrer) : referrers.get(referrer);
  if (r === undefined) referrers.set(referrer, (r = referring(referrer)));
  return r && !isOwnHost(r.host, pageHost, siteDomain) ? r.source : null;
}

/**
 * An explicit campaign tag (utm_source, else source, else ref) wins over the Referer: the site
 * owner tagged the link on purpose, and webmail or app referrers would otherwise hide a
 * newsletter. This is what Plausible and Google Analytics do. Known spellings are canonicalized.
 */
export function resolveSource(input: SourceInput): SourceInfo {
  const referrer = cleanReferrer(input.referrer);
  const tag = param(input.params, 'utm_source') ?? param(input.params, 'source') ?? param(input.params, 'ref');
  if (tag) return { referrer, source: sourceForTag(tag) ?? tag };
  return { referrer, source: referrer ? referrerSource(referrer, input.pageHost, input.siteDomain) : null };
}
