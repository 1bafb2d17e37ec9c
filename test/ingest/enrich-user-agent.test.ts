// User-agent parsing and bot detection on real browser, crawler and tool user agents.
import { describe, expect, test } from 'bun:test';
import { majorMinor, parseUserAgent } from '../../src/ingest/enrich/user-agent.ts';
import { isBotAgent } from '../../src/ingest/enrich/index.ts';
import { agentOf } from '../../src/ingest/enrich/agent.ts';

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const SAFARI_IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36';
const EDGE_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67';
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('parseUserAgent', () => {
  test.each([
    ['Chrome on Windows', CHROME_WIN, { browser: 'Chrome', browser_version: '124.0', os: 'Windows', os_version: '10', device: 'desktop' }],
    ['Safari on iPhone', SAFARI_IPHONE, { browser: 'Safari', browser_version: '17.4', os: 'iOS', os_version: '17.4', device: 'mobile' }],
    ['Firefox on Linux', FIREFOX_LINUX, { browser: 'Firefox', browser_version: '125.0', os: 'Linux', os_version: null, device: 'desktop' }],
    ['Safari on iPad', SAFARI_IPAD, { browser: 'Safari', browser_version: '17.4', os: 'iOS', os_version: '17.4', device: 'tablet' }],
    ['Chrome on Android phone', CHROME_ANDROID, { browser: 'Chrome', browser_version: '124.0', os: 'Android', os_version: '14', device: 'mobile' }],
    ['Edge on Windows', EDGE_WIN, { browser: 'Edge', browser_version: '124.0', os: 'Windows', os_version: '10', device: 'desktop' }],
    ['Safari on macOS', SAFARI_MAC, { browser: 'Safari', browser_version: '17.4', os: 'macOS', os_version: '10.15', device: 'desktop' }],
    ['empty', '', { browser: null, browser_version: null, os: null, os_version: null, device: null }],
    ['unrecognisable', 'zzz', { browser: null, browser_version: null, os: null, os_version: null, device: null }],
  ])('%s', (_name, ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected as ReturnType<typeof parseUserAgent>);
  });

  test('a repeated user agent gives the same (cached) answer, its bot verdict beside its parse', () => {
    expect(agentOf(CHROME_WIN)).toBe(agentOf(CHROME_WIN));
    expect(agentOf(CHROME_WIN)).toEqual({ bot: false, info: parseUserAgent(CHROME_WIN) });
    expect(agentOf(GOOGLEBOT).bot).toBe(true);
  });

  test('an absurdly long user agent is parsed from its first 1000 characters, and judged whole', () => {
    expect(agentOf(CHROME_WIN + ' x'.repeat(5000)).info.browser).toBe('Chrome');
    expect(isBotAgent(CHROME_WIN + ' x'.repeat(600) + ' Googlebot/2.1')).toBe(true);
  });
});

describe('majorMinor', () => {
  test.each([
    ['124.0.6367.82', '124.0'], ['17', '17'], ['10_15_7', '10.15'], ['', null], [undefined, null], ['beta', 'beta'],
  ])('%p → %p', (input, expected) => {
    expect(majorMinor(input)).toBe(expected);
  });
});

describe('isBotAgent', () => {
  test.each([
    { name: 'Googlebot', ua: GOOGLEBOT, bot: true },
    { name: 'Bingbot', ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', bot: true },
    { name: 'curl', ua: 'curl/8.5.0', bot: true },
    { name: 'python-requests', ua: 'python-requests/2.31.0', bot: true },
    { name: 'headless Chrome', ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36', bot: true },
    { name: 'empty', ua: '', bot: true },
    { name: 'blank', ua: '   ', bot: true },
    { name: 'Chrome', ua: CHROME_WIN, bot: false },
    { name: 'Safari iPhone', ua: SAFARI_IPHONE, bot: false },
    { name: 'Firefox', ua: FIREFOX_LINUX, bot: false },
  ])('$name → bot: $bot', ({ ua, bot }) => {
    expect(isBotAgent(ua)).toBe(bot);
  });
});
