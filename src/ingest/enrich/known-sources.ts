// Well-known traffic sources: the referring hosts and utm_source spellings that mean each one,
// and the category the channel rules read (search, social, video, shopping, email, AI).
export type SourceCategory = 'search' | 'social' | 'video' | 'shopping' | 'email' | 'ai';

type KnownSource = {
  name: string;
  category: SourceCategory;
  /** Hosts without "www."; subdomains match too (l.facebook.com → facebook.com). Android app ids allowed. */
  hosts: string[];
  /** Extra utm_source / ref spellings (lowercase); the name and hosts always count. */
  aliases?: string[];
  /** Second-level label used under any country TLD: google.co.uk, amazon.de, yandex.com.tr… */
  family?: string;
};

const SOURCES: KnownSource[] = [
  // Search engines
  { name: 'Google', category: 'search', family: 'google', hosts: ['google.com', 'com.google.android.googlequicksearchbox'], aliases: ['adwords', 'googleads', 'google ads'] },
  { name: 'Bing', category: 'search', family: 'bing', hosts: ['bing.com'], aliases: ['microsoft ads', 'bingads'] },
  { name: 'DuckDuckGo', category: 'search', hosts: ['duckduckgo.com', 'html.duckduckgo.com'], aliases: ['ddg'] },
  { name: 'Yahoo!', category: 'search', hosts: ['search.yahoo.com', 'yahoo.com', 'yahoo.co.jp'], aliases: ['yahoo'] },
  { name: 'Yandex', category: 'search', family: 'yandex', hosts: ['ya.ru'] },
  { name: 'Baidu', category: 'search', hosts: ['baidu.com'] },
  { name: 'Ecosia', category: 'search', hosts: ['ecosia.org'] },
  { name: 'Brave', category: 'search', hosts: ['search.brave.com'], aliases: ['brave search'] },
  { name: 'Naver', category: 'search', hosts: ['naver.com'] },
  { name: 'Seznam', category: 'search', hosts: ['seznam.cz'] },
  { name: 'Qwant', category: 'search', hosts: ['qwant.com'] },
  { name: 'Startpage', category: 'search', hosts: ['startpage.com'] },
  { name: 'Sogou', category: 'search', hosts: ['sogou.com'] },
  { name: 'Kagi', category: 'search', hosts: ['kagi.com'] },
  { name: 'Ask', category: 'search', hosts: ['ask.com'] },
  { name: 'AOL', category: 'search', hosts: ['search.aol.com', 'aol.com'] },
  // Social networks and communities
  { name: 'Facebook', category: 'social', hosts: ['facebook.com', 'fb.com', 'fb.me', 'com.facebook.katana'], aliases: ['fb'] },
  { name: 'Instagram', category: 'social', hosts: ['instagram.com', 'com.instagram.android'], aliases: ['ig'] },
  { name: 'Twitter', category: 'social', hosts: ['twitter.com', 'x.com', 't.co', 'com.twitter.android'], aliases: ['x', 'tw'] },
  { name: 'LinkedIn', category: 'social', hosts: ['linkedin.com', 'lnkd.in', 'com.linkedin.android'], aliases: ['li'] },
  { name: 'Reddit', category: 'social', hosts: ['reddit.com', 'redd.it', 'com.reddit.frontpage'] },
  { name: 'Hacker News', category: 'social', hosts: ['news.ycombinator.com'], aliases: ['hn', 'hackernews'] },
  { name: 'GitHub', category: 'social', hosts: ['github.com'] },
  { name: 'Pinterest', category: 'social', family: 'pinterest', hosts: ['pin.it'] },
  { name: 'TikTok', category: 'social', hosts: ['tiktok.com'] },
  { name: 'Threads', category: 'social', hosts: ['threads.net', 'threads.com'] },
  { name: 'Bluesky', category: 'social', hosts: ['bsky.app'] },
  { name: 'Mastodon', category: 'social', hosts: ['mastodon.social'] },
  { name: 'Telegram', category: 'social', hosts: ['t.me', 'web.telegram.org', 'org.telegram.messenger'] },
  { name: 'WhatsApp', category: 'social', hosts: ['whatsapp.com', 'wa.me'] },
  { name: 'Discord', category: 'social', hosts: ['discord.com', 'discordapp.com'] },
  { name: 'Slack', category: 'social', hosts: ['slack.com', 'com.slack'] },
  { name: 'Product Hunt', category: 'social', hosts: ['producthunt.com'], aliases: ['producthunt'] },
  { name: 'VKontakte', category: 'social', hosts: ['vk.com'], aliases: ['vk'] },
  { name: 'Quora', category: 'social', hosts: ['quora.com'] },
  { name: 'Medium', category: 'social', hosts: ['medium.com'] },
  // Video platforms
  { name: 'YouTube', category: 'video', hosts: ['youtube.com', 'youtu.be', 'com.google.android.youtube'], aliases: ['yt'] },
  { name: 'Vimeo', category: 'video', hosts: ['vimeo.com'] },
  { name: 'Twitch', category: 'video', hosts: ['twitch.tv'] },
  { name: 'Dailymotion', category: 'video', hosts: ['dailymotion.com'] },
  // Shopping
  { name: 'Amazon', category: 'shopping', family: 'amazon', hosts: [] },
  { name: 'eBay', category: 'shopping', family: 'ebay', hosts: [] },
  { name: 'Etsy', category: 'shopping', hosts: ['etsy.com'] },
  { name: 'Walmart', category: 'shopping', hosts: ['walmart.com'] },
  { name: 'AliExpress', category: 'shopping', hosts: ['aliexpress.com'] },
  { name: 'Temu', category: 'shopping', hosts: ['temu.com'] },
  { name: 'Google Shopping', category: 'shopping', hosts: ['shopping.google.com'] },
  // Webmail
  { name: 'Gmail', category: 'email', hosts: ['mail.google.com', 'com.google.android.gm'] },
  { name: 'Outlook.com', category: 'email', hosts: ['outlook.live.com', 'outlook.office.com', 'outlook.office365.com'], aliases: ['outlook'] },
  { name: 'Yahoo Mail', category: 'email', hosts: ['mail.yahoo.com'] },
  { name: 'Proton Mail', category: 'email', hosts: ['mail.proton.me'] },
  // AI assistants
  { name: 'ChatGPT', category: 'ai', hosts: ['chatgpt.com', 'chat.openai.com'] },
  { name: 'Perplexity', category: 'ai', hosts: ['perplexity.ai'] },
  { name: 'Claude', category: 'ai', hosts: ['claude.ai'] },
  { name: 'Gemini', category: 'ai', hosts: ['gemini.google.com', 'bard.google.com'] },
  { name: 'Copilot', category: 'ai', hosts: ['copilot.microsoft.com', 'copilot.cloud.microsoft'] },
  { name: 'DeepSeek', category: 'ai', hosts: ['chat.deepseek.com'] },
  { name: 'Le Chat', category: 'ai', hosts: ['chat.mistral.ai'] },
];

const byHost = new Map<string, KnownSource>();
const byFamily = new Map<string, KnownSource>();
const byAlias = new Map<string, KnownSource>();
const byName = new Map<string, KnownSource>();
for (const s of SOURCES) {
  byName.set(s.name.toLowerCase(), s);
  for (const h of s.hosts) byHost.set(h, s);
  if (s.family) byFamily.set(s.family, s);
  for (const a of [s.name.toLowerCase(), ...s.hosts, ...(s.aliases ?? [])]) byAlias.set(a, s);
}

// "<family>.<tld>", "<family>.co.<cc>", "<family>.com.<cc>", with any subdomain in front.
const FAMILY_HOST = /(?:^|\.)([a-z0-9-]+)\.(?:com?\.)?[a-z]{2,3}$/;

/** Canonical source name for a referring host (lowercase, no "www."), or null when unknown. */
export function sourceForHost(host: string): string | null {
  // Most specific first: mail.google.com is Gmail, google.com is Google.
  for (let h = host; h !== ''; ) {
    const hit = byHost.get(h);
    if (hit) return hit.name;
    const dot = h.indexOf('.');
    if (dot < 0) break;
    h = h.slice(dot + 1);
  }
  const family = FAMILY_HOST.exec(host)?.[1];
  return (family && byFamily.get(family)?.name) || null;
}

/** Canonical name for a utm_source/ref tag ("ig" → Instagram, "GOOGLE" → Google), else null. */
export function sourceForTag(tag: string): string | null {
  const t = tag.toLowerCase();
  const hit = byAlias.get(t.startsWith('www.') ? t.slice(4) : t);
  if (hit) return hit.name;
  return t.includes('.') ? sourceForHost(t) : null;
}

/** Category of a source name (canonical or a raw hostname/tag), or null for plain referrals. */
export function sourceCategory(source: string | null): SourceCategory | null {
  if (!source) return null;
  const s = source.toLowerCase();
  return (byName.get(s) ?? byAlias.get(s))?.category ?? null;
}
