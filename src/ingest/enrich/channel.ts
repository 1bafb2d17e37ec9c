// Acquisition channel of a visit, modelled on Google Analytics 4's default channel grouping
// (which Plausible follows), plus an "AI Assistants" channel for chatbots that link out.
import { sourceCategory, type SourceCategory } from './known-sources.ts';

export type ChannelInput = {
  source: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  /** Query parameters of the landing URL, for ad click IDs (gclid, msclkid…). */
  params: URLSearchParams | null;
};

/** What the rules look at, lowercased once. */
type Facts = {
  category: SourceCategory | null;
  hasSource: boolean;
  utmSource: string;
  medium: string;
  campaign: string;
  paidMedium: boolean;
  clicks: Set<ClickKind>;
};

type ClickKind = 'search' | 'social' | 'display';

// Ad click IDs the ad platforms append when auto-tagging. fbclid is NOT here: Facebook adds it to
// every outbound link, paid or not.
const CLICK_IDS: Record<string, ClickKind> = {
  gclid: 'search', gbraid: 'search', wbraid: 'search', msclkid: 'search', yclid: 'search',
  ttclid: 'social', twclid: 'social', li_fat_id: 'social', rdt_cid: 'social', sccid: 'social', epik: 'social',
  dclid: 'display',
};

const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/;
const SHOPPING_CAMPAIGN = /^(.*(([^a-df-z]|^)shop|shopping).*)$/;
const DISPLAY_MEDIA = new Set(['display', 'banner', 'expandable', 'interstitial', 'cpm']);
const SOCIAL_MEDIA = new Set(['social', 'social-network', 'social-media', 'sm', 'social network', 'social media']);
const REFERRAL_MEDIA = new Set(['referral', 'app', 'link']);
const EMAIL_TAGS = ['email', 'e-mail', 'e_mail', 'e mail', 'newsletter'];

const is = (c: SourceCategory) => (f: Facts) => f.category === c;
const shopping = (f: Facts) => f.category === 'shopping' || SHOPPING_CAMPAIGN.test(f.campaign);
const hasEmailTag = (s: string) => EMAIL_TAGS.some((t) => s.includes(t));

/** First matching rule names the channel; order matters (paid before organic, specific before generic). */
const RULES: Array<[channel: string, test: (f: Facts) => boolean]> = [
  ['Cross-network', (f) => f.campaign.includes('cross-network')],
  ['Paid Shopping', (f) => shopping(f) && f.paidMedium],
  ['Paid Search', (f) => (is('search')(f) && f.paidMedium)
    || (f.clicks.has('search') && (!f.hasSource || is('search')(f)))],
  ['Paid Social', (f) => (is('social')(f) && f.paidMedium) || f.clicks.has('social')],
  ['Video', (f) => is('video')(f) && f.paidMedium],
  ['Display', (f) => DISPLAY_MEDIA.has(f.medium) || f.clicks.has('display')],
  ['Paid Other', (f) => f.paidMedium],
  ['Organic Shopping', shopping],
  ['Organic Social', (f) => is('social')(f) || SOCIAL_MEDIA.has(f.medium)],
  ['Organic Video', (f) => is('video')(f) || f.medium.includes('video')],
  ['AI Assistants', is('ai')],
  ['Organic Search', (f) => is('search')(f) || f.medium === 'organic'],
  ['Email', (f) => is('email')(f) || hasEmailTag(f.utmSource) || hasEmailTag(f.medium)],
  ['Affiliates', (f) => f.medium === 'affiliate'],
  ['Audio', (f) => f.medium === 'audio'],
  ['SMS', (f) => f.utmSource === 'sms' || f.medium === 'sms'],
  ['Mobile Push Notifications', (f) => f.medium.endsWith('push') || f.medium.includes('mobile')
    || f.medium.includes('notification') || f.utmSource === 'firebase'],
  ['Referral', (f) => REFERRAL_MEDIA.has(f.medium) || f.hasSource],
];

function clickKinds(params: URLSearchParams | null): Set<ClickKind> {
  const kinds = new Set<ClickKind>();
  if (params) for (const key of params.keys()) {
    const kind = CLICK_IDS[key.toLowerCase()];
    if (kind) kinds.add(kind);
  }
  return kinds;
}

export function channelOf(input: ChannelInput): string {
  const medium = (input.utm_medium ?? '').toLowerCase();
  const facts: Facts = {
    category: sourceCategory(input.source),
    hasSource: !!input.source,
    utmSource: (input.utm_source ?? '').toLowerCase(),
    medium,
    campaign: (input.utm_campaign ?? '').toLowerCase(),
    paidMedium: PAID_MEDIUM.test(medium),
    clicks: clickKinds(input.params),
  };
  for (const [channel, test] of RULES) if (test(facts)) return channel;
  return 'Direct';
}
