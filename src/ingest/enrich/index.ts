// Enrichment entry point: raw request facts → the derived columns stored with every event.
// Each concern lives in its own module; this file only wires them together.
import { agentOf, type Agent } from './agent.ts';
import { geolocate } from './geo.ts';
import { parsePageUrl } from './url.ts';
import { resolveSource } from './referrer.ts';
import { channelOf } from './channel.ts';
import { screenClass } from './screen.ts';
import QuickLRU from 'quick-lru';
import type { PageUrl } from './url.ts';

export { isBotAgent } from './agent.ts';

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
// rules were a tenth of the event route's main-thread time (bench/ingest profile); cached, one lookup per
// event finds the parsed URL and, beside it, the channel of each source it arrived with.
// The referrer is parsed per event: within a visit it is the previous page, so it repeats far less.
// Only URLs of ordinary length are cached, so that a flood of unique 2,000-character URLs cannot make the
// cache hold ~100 MB; a page keeps the channels of at most MAX_SOURCES sources.
type ParsedPage = { url: PageUrl; channels: Map<string | null, string> };
/** Up to 10,000 pages (two generations of 5,000). */
const pages = new QuickLRU<string, ParsedPage>({ maxSize: 5_000 });
const CACHED_URL_LENGTH = 300;
const MAX_SOURCES = 64;

function pageOf(url: string): ParsedPage {
  if (url.length > CACHED_URL_LENGTH) return { url: parsePageUrl(url), channels: new Map() };
  let p = pages.get(url);
  if (p === undefined) pages.set(url, (p = { url: parsePageUrl(url), channels: new Map() }));
  return p;
}

/** channelOf depends on the source and on the URL's tags and click IDs only. */
function channel(p: ParsedPage, source: string | null): string {
  let c = p.channels.get(source);
  if (c === undefined) {
    c = channelOf({ ...p.url, source });
    if (p.channels.size < MAX_SOURCES) p.channels.set(source, c);
  }
  return c;
}

/** `agent`: the caller's agentOf(raw.userAgent) when it already has it (the event route checked for bots). */
export function enrich(raw: RawContext, agent: Agent = agentOf(raw.userAgent)): Enriched {
  const cached = pageOf(raw.url);
  const page = cached.url;
  const { referrer, source } = resolveSource({
    referrer: raw.referrer, params: page.params, pageHost: page.hostname, siteDomain: raw.siteDomain,
  });
  const ua = agent.info;
  const geo = geolocate(raw.ip);
  return {
    hostname: page.hostname,
    path: page.path,
    referrer,
    source,
    channel: channel(cached, source),
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
