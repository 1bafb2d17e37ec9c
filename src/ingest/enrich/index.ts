// Enrichment entry point: raw request facts → the derived columns stored with every event.
// PLACEHOLDER implementation: the enrichment modules (user-agent, geo, referrer, channel, url, screen)
// replace the bodies below; the types are the contract the ingest pipeline codes against.

export type RawContext = {
  url: string;
  referrer?: string | null;
  userAgent: string;
  ip: string;
  screenWidth?: number | null;
  /** The site's own domain: referrers from it (or its subdomains) are self-referrals, not sources. */
  siteDomain: string;
};

export type Enriched = {
  hostname: string | null;
  path: string | null;
  referrer: string | null;
  source: string | null;
  channel: string;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  browser: string | null;
  browser_version: string | null;
  os: string | null;
  os_version: string | null;
  device: string | null;
  screen: string | null;
};

/** True when the user agent belongs to a bot or crawler: such events are answered 202 and dropped. */
export function isBotAgent(userAgent: string): boolean {
  return userAgent === '';
}

export function enrich(raw: RawContext): Enriched {
  const u = new URL(raw.url);
  return {
    hostname: u.hostname, path: u.pathname, referrer: raw.referrer ?? null, source: null, channel: 'Direct',
    utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null,
    country: null, region: null, city: null, browser: null, browser_version: null, os: null, os_version: null,
    device: null, screen: null,
  };
}
