// Enrichment entry point: raw request facts → the derived columns stored with every event.
// Each concern lives in its own module; this file only wires them together.
import { parseUserAgent } from './user-agent.ts';
import { geolocate } from './geo.ts';
import { parsePageUrl } from './url.ts';
import { resolveSource } from './referrer.ts';
import { channelOf } from './channel.ts';
import { screenClass } from './screen.ts';
import { lru } from 'tiny-lru';
import type { PageUrl } from './url.ts';

export { isBotAgent } from './bot.ts';

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

// A site has a few thousand page URLs, and each lands with few sources: parsing the URL and the channel
// rules were a tenth of the event route's main-thread time (bench/ingest profile); cached, a lookup each.
// The referrer is parsed per event: within a visit it is the previous page, so it repeats far less.
// Only URLs of ordinary length are cached, so that a flood of unique 2,000-character URLs cannot make the
// caches hold ~100 MB.
const pages = lru<PageUrl>(10_000);
const channels = lru<string>(10_000);
const CACHED_URL_LENGTH = 300;

function pageOf(url: string): PageUrl {
  if (url.length > CACHED_URL_LENGTH) return parsePageUrl(url);
  let p = pages.get(url);
  if (p === undefined) pages.set(url, (p = parsePageUrl(url)));
  return p;
}

/** channelOf depends on the source and on the URL's tags and click IDs only. */
function channel(p: PageUrl, url: string, source: string | null): string {
  if (url.length > CACHED_URL_LENGTH) return channelOf({ ...p, source });
  const key = `${source ?? ''}\n${url}`;
  let c = channels.get(key);
  if (c === undefined) channels.set(key, (c = channelOf({ ...p, source })));
  return c;
}

export function enrich(raw: RawContext): Enriched {
  const page = pageOf(raw.url);
  const { referrer, source } = resolveSource({
    referrer: raw.referrer, params: page.params, pageHost: page.hostname, siteDomain: raw.siteDomain,
  });
  const ua = parseUserAgent(raw.userAgent);
  const geo = geolocate(raw.ip);
  return {
    hostname: page.hostname,
    path: page.path,
    referrer,
    source,
    channel: channel(page, raw.url, source),
    utm_source: page.utm_source,
    utm_medium: page.utm_medium,
    utm_campaign: page.utm_campaign,
    utm_term: page.utm_term,
    utm_content: page.utm_content,
    country: geo.country,
    region: geo.region,
    city: geo.city,
    browser: ua.browser,
    browser_version: ua.browser_version,
    os: ua.os,
    os_version: ua.os_version,
    device: ua.device,
    screen: screenClass(raw.screenWidth),
  };
}
