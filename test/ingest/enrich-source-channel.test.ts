// Referrer → source and (source, UTM tags, click IDs) → channel, table-driven over realistic links.
import { describe, expect, test } from 'bun:test';
import { enrich } from '../../src/ingest/enrich/index.ts';
import { cleanReferrer } from '../../src/ingest/enrich/referrer.ts';
import { sourceForHost, sourceForTag } from '../../src/ingest/enrich/known-sources.ts';

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const SITE = 'example.com';

function visit(url: string, referrer?: string, siteDomain = SITE) {
  const e = enrich({ url, referrer, userAgent: UA, ip: '8.8.8.8', siteDomain });
  return { source: e.source, channel: e.channel };
}

describe('source and channel of a landing', () => {
  test.each([
    // [description, landing URL, referrer, source, channel]
    ['no referrer', 'https://example.com/', undefined, null, 'Direct'],
    ['Google', 'https://example.com/', 'https://www.google.com/', 'Google', 'Organic Search'],
    ['Google UK', 'https://example.com/', 'https://www.google.co.uk/', 'Google', 'Organic Search'],
    ['Google Brazil', 'https://example.com/', 'https://www.google.com.br/', 'Google', 'Organic Search'],
    ['Google Germany', 'https://example.com/', 'https://google.de/search?q=x', 'Google', 'Organic Search'],
    ['Bing', 'https://example.com/', 'https://www.bing.com/', 'Bing', 'Organic Search'],
    ['DuckDuckGo', 'https://example.com/', 'https://duckduckgo.com/', 'DuckDuckGo', 'Organic Search'],
    ['Yahoo', 'https://example.com/', 'https://search.yahoo.com/', 'Yahoo!', 'Organic Search'],
    ['Yahoo Japan subdomain', 'https://example.com/', 'https://search.yahoo.co.jp/', 'Yahoo!', 'Organic Search'],
    ['Yandex', 'https://example.com/', 'https://yandex.ru/', 'Yandex', 'Organic Search'],
    ['Baidu', 'https://example.com/', 'https://www.baidu.com/', 'Baidu', 'Organic Search'],
    ['Ecosia', 'https://example.com/', 'https://www.ecosia.org/', 'Ecosia', 'Organic Search'],
    ['Brave', 'https://example.com/', 'https://search.brave.com/', 'Brave', 'Organic Search'],
    ['Facebook', 'https://example.com/', 'https://www.facebook.com/', 'Facebook', 'Organic Social'],
    ['Facebook link shim', 'https://example.com/', 'https://l.facebook.com/', 'Facebook', 'Organic Social'],
    ['Facebook mobile', 'https://example.com/', 'https://m.facebook.com/', 'Facebook', 'Organic Social'],
    ['fbclid is not paid', 'https://example.com/?fbclid=IwAR0abc', 'https://l.facebook.com/', 'Facebook', 'Organic Social'],
    ['Instagram', 'https://example.com/', 'https://l.instagram.com/', 'Instagram', 'Organic Social'],
    ['t.co', 'https://example.com/', 'https://t.co/abc', 'Twitter', 'Organic Social'],
    ['x.com', 'https://example.com/', 'https://x.com/', 'Twitter', 'Organic Social'],
    ['LinkedIn', 'https://example.com/', 'https://www.linkedin.com/', 'LinkedIn', 'Organic Social'],
    ['lnkd.in', 'https://example.com/', 'https://lnkd.in/abc', 'LinkedIn', 'Organic Social'],
    ['Reddit', 'https://example.com/', 'https://old.reddit.com/r/x', 'Reddit', 'Organic Social'],
    ['Hacker News', 'https://example.com/', 'https://news.ycombinator.com/', 'Hacker News', 'Organic Social'],
    ['GitHub', 'https://example.com/', 'https://github.com/foo/bar', 'GitHub', 'Organic Social'],
    ['YouTube', 'https://example.com/', 'https://www.youtube.com/', 'YouTube', 'Organic Video'],
    ['TikTok', 'https://example.com/', 'https://www.tiktok.com/', 'TikTok', 'Organic Social'],
    ['Pinterest France', 'https://example.com/', 'https://www.pinterest.fr/', 'Pinterest', 'Organic Social'],
    ['ChatGPT', 'https://example.com/', 'https://chatgpt.com/', 'ChatGPT', 'AI Assistants'],
    ['ChatGPT (old host)', 'https://example.com/', 'https://chat.openai.com/', 'ChatGPT', 'AI Assistants'],
    ['ChatGPT tags its links', 'https://example.com/?utm_source=chatgpt.com', undefined, 'ChatGPT', 'AI Assistants'],
    ['Perplexity', 'https://example.com/', 'https://www.perplexity.ai/', 'Perplexity', 'AI Assistants'],
    ['Claude', 'https://example.com/', 'https://claude.ai/', 'Claude', 'AI Assistants'],
    ['Gemini (not Google search)', 'https://example.com/', 'https://gemini.google.com/', 'Gemini', 'AI Assistants'],
    ['Copilot', 'https://example.com/', 'https://copilot.microsoft.com/', 'Copilot', 'AI Assistants'],
    ['Gmail (not Google search)', 'https://example.com/', 'https://mail.google.com/', 'Gmail', 'Email'],
    ['Outlook webmail', 'https://example.com/', 'https://outlook.live.com/', 'Outlook.com', 'Email'],
    ['Amazon Germany', 'https://example.com/', 'https://www.amazon.de/', 'Amazon', 'Organic Shopping'],
    ['Gmail Android app', 'https://example.com/', 'android-app://com.google.android.gm/', 'Gmail', 'Email'],
    ['unknown Android app', 'https://example.com/', 'android-app://com.example.reader/', 'android-app://com.example.reader', 'Referral'],
    ['other site', 'https://example.com/', 'https://www.someblog.org/post/1', 'someblog.org', 'Referral'],
    ['other site, upper case', 'https://example.com/', 'HTTPS://Blog.Other.NET/', 'blog.other.net', 'Referral'],
    // Self-referrals and junk
    ['self-referral', 'https://example.com/a', 'https://example.com/b', null, 'Direct'],
    ['self-referral via www', 'https://example.com/a', 'https://www.example.com/b', null, 'Direct'],
    ['self-referral from a subdomain', 'https://example.com/a', 'https://shop.example.com/', null, 'Direct'],
    ['referral from the page host', 'https://example.org/', 'https://example.org/x', null, 'Direct'],
    ['look-alike domain is not self', 'https://example.com/', 'https://notexample.com/', 'notexample.com', 'Referral'],
    ['localhost', 'https://example.com/', 'http://localhost:3000/', null, 'Direct'],
    ['loopback address', 'https://example.com/', 'http://127.0.0.1:8080/', null, 'Direct'],
    ['host with port and credentials', 'https://example.com/', 'https://user:pw@Blog.Org:8443/x', 'blog.org', 'Referral'],
    ['internationalised host kept readable', 'https://example.com/', 'https://www.münchen.de/', 'münchen.de', 'Referral'],
    ['host only, no path', 'https://example.com/', 'https://news.ycombinator.com', 'Hacker News', 'Organic Social'],
    ['not a URL', 'https://example.com/', 'garbage', null, 'Direct'],
    ['non-web scheme', 'https://example.com/', 'file:///C:/page.html', null, 'Direct'],
    // Campaign tags
    ['utm_source wins over the referrer', 'https://example.com/?utm_source=newsletter&utm_medium=email', 'https://mail.google.com/', 'newsletter', 'Email'],
    ['newsletter without medium', 'https://example.com/?utm_source=weekly-newsletter', undefined, 'weekly-newsletter', 'Email'],
    ['utm on a self-referral still counts', 'https://example.com/?utm_source=banner', 'https://example.com/', 'banner', 'Referral'],
    ['known tag canonicalised', 'https://example.com/?utm_source=GOOGLE', undefined, 'Google', 'Organic Search'],
    ['ig shorthand', 'https://example.com/?utm_source=ig', undefined, 'Instagram', 'Organic Social'],
    ['ref parameter', 'https://example.com/?ref=producthunt', undefined, 'Product Hunt', 'Organic Social'],
    ['source parameter', 'https://example.com/?source=partnerblog', undefined, 'partnerblog', 'Referral'],
    ['utm_source before source and ref', 'https://example.com/?ref=a&source=b&utm_source=c', undefined, 'c', 'Referral'],
    ['empty utm_source ignored', 'https://example.com/?utm_source=%20', 'https://github.com/', 'GitHub', 'Organic Social'],
    // Paid
    ['Google Ads gclid', 'https://example.com/?gclid=Cj0KCQ', 'https://www.google.com/', 'Google', 'Paid Search'],
    ['gclid without referrer', 'https://example.com/?gclid=Cj0KCQ', undefined, null, 'Paid Search'],
    ['gbraid (iOS)', 'https://example.com/?gbraid=0AAAA', 'https://www.google.com/', 'Google', 'Paid Search'],
    ['Microsoft Ads msclkid', 'https://example.com/?msclkid=abc', 'https://www.bing.com/', 'Bing', 'Paid Search'],
    ['gclid from a plain referral is not search', 'https://example.com/?gclid=x', 'https://someblog.org/', 'someblog.org', 'Referral'],
    ['cpc medium on search', 'https://example.com/?utm_source=google&utm_medium=cpc', undefined, 'Google', 'Paid Search'],
    ['paid social medium', 'https://example.com/?utm_source=facebook&utm_medium=paid_social', undefined, 'Facebook', 'Paid Social'],
    ['TikTok ads click id', 'https://example.com/?ttclid=E.C.P', 'https://www.tiktok.com/', 'TikTok', 'Paid Social'],
    ['paid video', 'https://example.com/?utm_source=youtube&utm_medium=cpv', undefined, 'YouTube', 'Video'],
    ['display medium', 'https://example.com/?utm_source=adnet&utm_medium=display', undefined, 'adnet', 'Display'],
    ['dclid', 'https://example.com/?dclid=abc', undefined, null, 'Display'],
    ['paid other', 'https://example.com/?utm_source=adnet&utm_medium=ppc', undefined, 'adnet', 'Paid Other'],
    ['paid shopping', 'https://example.com/?utm_source=amazon&utm_medium=cpc', undefined, 'Amazon', 'Paid Shopping'],
    ['shopping campaign', 'https://example.com/?utm_source=partner&utm_campaign=summer-shop', undefined, 'partner', 'Organic Shopping'],
    ['cross-network', 'https://example.com/?utm_source=google&utm_medium=cpc&utm_campaign=pmax-cross-network', undefined, 'Google', 'Cross-network'],
    // Other media
    ['affiliate', 'https://example.com/?utm_source=partner&utm_medium=affiliate', undefined, 'partner', 'Affiliates'],
    ['audio', 'https://example.com/?utm_source=podcast&utm_medium=audio', undefined, 'podcast', 'Audio'],
    ['sms', 'https://example.com/?utm_source=sms', undefined, 'sms', 'SMS'],
    ['push', 'https://example.com/?utm_source=app&utm_medium=web-push', undefined, 'app', 'Mobile Push Notifications'],
    ['social medium', 'https://example.com/?utm_source=forum&utm_medium=social', undefined, 'forum', 'Organic Social'],
    ['medium case-insensitive', 'https://example.com/?utm_source=news&utm_medium=EMAIL', undefined, 'news', 'Email'],
    ['referral medium without source', 'https://example.com/?utm_medium=referral', undefined, null, 'Referral'],
  ])('%s', (_d, url, referrer, source, channel) => {
    expect(visit(url, referrer)).toEqual({ source, channel });
  });
});

describe('self-referrals on an internationalised domain', () => {
  test.each([
    ['site domain in Unicode', 'münchen.de'],
    ['site domain in punycode', 'xn--mnchen-3ya.de'],
  ])('%s', (_d, domain) => {
    expect(visit('https://münchen.de/a', 'https://www.münchen.de/b', domain)).toEqual({ source: null, channel: 'Direct' });
    expect(visit('https://münchen.de/a', 'https://blog.xn--mnchen-3ya.de/', domain)).toEqual({ source: null, channel: 'Direct' });
  });
});

describe('known-source tables', () => {
  test('the most specific host wins', () => {
    expect(sourceForHost('mail.google.com')).toBe('Gmail');
    expect(sourceForHost('docs.google.com')).toBe('Google');
    expect(sourceForHost('news.google.co.uk')).toBe('Google');
  });

  test('look-alikes do not match a family', () => {
    expect(sourceForHost('google.evil.com')).toBeNull();
    expect(sourceForHost('notgoogle.com')).toBeNull();
  });

  test('unknown tags are not canonicalised', () => {
    expect(sourceForTag('spring-mailer')).toBeNull();
    expect(sourceForTag('www.reddit.com')).toBe('Reddit');
  });
});

describe('referrer as stored', () => {
  test('is trimmed and capped at 2000 characters', () => {
    expect(cleanReferrer('  https://a.org/  ')).toBe('https://a.org/');
    expect(cleanReferrer(`https://a.org/${'x'.repeat(3000)}`)!.length).toBe(2000);
    expect(cleanReferrer('   ')).toBeNull();
    expect(cleanReferrer(null)).toBeNull();
  });

  test('keeps the full referrer even when the source is known', () => {
    const e = enrich({ url: 'https://example.com/', referrer: 'https://www.google.com/search?q=tern', userAgent: UA, ip: '8.8.8.8', siteDomain: SITE });
    expect(e.referrer).toBe('https://www.google.com/search?q=tern');
  });
});

test('the per-URL caches keep each source apart, and long URLs (not cached) enrich alike', () => {
  const long = `https://example.com/p?utm_medium=cpc&pad=${'x'.repeat(400)}`;
  for (const url of ['https://example.com/p?utm_medium=cpc', long]) {
    expect(visit(url, 'https://www.google.com/')).toEqual({ source: 'Google', channel: 'Paid Search' });
    expect(visit(url, 'https://www.facebook.com/')).toEqual({ source: 'Facebook', channel: 'Paid Social' });
    expect(visit(url, 'https://www.google.com/')).toEqual({ source: 'Google', channel: 'Paid Search' });
    expect(visit(url)).toEqual({ source: null, channel: 'Paid Other' });
  }
});
