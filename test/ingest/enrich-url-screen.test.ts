// Page URL → hostname/path/UTM, screen width → size class, and the whole enrich() record.
import { describe, expect, test } from 'bun:test';
import { parsePageUrl, rawPath } from '../../src/ingest/enrich/url.ts';
import { screenClass } from '../../src/ingest/enrich/screen.ts';
import { enrich } from '../../src/ingest/enrich/index.ts';

describe('parsePageUrl', () => {
  test.each([
    ['https://example.com', 'example.com', '/'],
    ['https://Example.COM/Blog/Post/', 'example.com', '/Blog/Post/'],
    ['https://www.example.com/a?b=1#c', 'example.com', '/a'],
    ['https://shop.example.com:8443/cart#x', 'shop.example.com', '/cart'],
    ['https://example.com?x=1', 'example.com', '/'],
    ['https://example.com/%C3%BC/caf%C3%A9', 'example.com', '/%C3%BC/caf%C3%A9'],
    ['https://example.com/über/a b', 'example.com', '/über/a b'],
    ['https://example.com/a/../b', 'example.com', '/a/../b'],
    ['https://user:pw@example.com/p', 'example.com', '/p'],
    ['https://example.com/app#/settings', 'example.com', '/app#/settings'],
    ['https://example.com/#!/users/7?tab=2', 'example.com', '/#!/users/7'],
    ['https://example.com/a?b=1#/x', 'example.com', '/a#/x'],
  ])('%s → %s %s', (url, hostname, path) => {
    const p = parsePageUrl(url);
    expect({ hostname: p.hostname, path: p.path }).toEqual({ hostname, path });
  });

  test('unparseable URL → nulls', () => {
    const p = parsePageUrl('not a url');
    expect([p.hostname, p.path, p.utm_source]).toEqual([null, null, null]);
  });

  test('path is capped at 2000 characters', () => {
    expect(rawPath(`https://example.com/${'a'.repeat(3000)}`)).toHaveLength(2000);
  });

  test('the five UTM parameters are decoded, trimmed and capped at 500', () => {
    const long = 'x'.repeat(600);
    const p = parsePageUrl(
      `https://example.com/?utm_source=+News%20letter+&utm_medium=email&utm_campaign=spring%20sale&utm_term=shoes&utm_content=${long}&utm_id=9`,
    );
    expect(p.utm_source).toBe('News letter');
    expect(p.utm_medium).toBe('email');
    expect(p.utm_campaign).toBe('spring sale');
    expect(p.utm_term).toBe('shoes');
    expect(p.utm_content).toHaveLength(500);
  });

  test('empty UTM values are absent', () => {
    expect(parsePageUrl('https://example.com/?utm_source=&utm_medium=%20').utm_source).toBeNull();
  });
});

describe('screenClass', () => {
  test.each([
    [320, 'mobile'], [575, 'mobile'], [576, 'tablet'], [991, 'tablet'], [992, 'laptop'],
    [1439, 'laptop'], [1440, 'desktop'], [3840, 'desktop'],
    [0, null], [-5, null], [Number.NaN, null], [null, null], [undefined, null],
  ])('%p → %p', (w, expected) => {
    expect(screenClass(w)).toBe(expected as ReturnType<typeof screenClass>);
  });
});

describe('enrich', () => {
  test('fills every derived column of a tagged mobile visit from the UK', () => {
    const e = enrich({
      url: 'https://www.example.com/pricing/?utm_source=newsletter&utm_medium=email&utm_campaign=launch',
      referrer: 'https://mail.google.com/',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1',
      ip: '81.2.69.142',
      screenWidth: 390,
      siteDomain: 'example.com',
    });
    expect(e).toEqual({
      hostname: 'example.com', path: '/pricing/', referrer: 'https://mail.google.com/',
      source: 'newsletter', channel: 'Email',
      utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch', utm_term: null, utm_content: null,
      country: 'GB', region: 'England', city: 'London',
      browser: 'Safari', browser_version: '17.4', os: 'iOS', os_version: '17.4', device: 'mobile',
      screen: 'mobile',
    });
  });

  test('a bare direct desktop visit from a private address has no location or source', () => {
    const e = enrich({
      url: 'https://example.com/',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
      ip: '192.168.1.20',
      siteDomain: 'example.com',
    });
    expect(e).toMatchObject({
      source: null, channel: 'Direct', referrer: null, country: null, region: null, city: null,
      browser: 'Firefox', device: 'desktop', screen: null,
    });
  });
});
