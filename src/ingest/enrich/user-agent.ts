// User-Agent string → browser, OS (names and major.minor versions) and device class.
import { UAParser } from 'ua-parser-js';

export type UserAgentInfo = {
  browser: string | null;
  browser_version: string | null;
  os: string | null;
  os_version: string | null;
  device: 'desktop' | 'mobile' | 'tablet' | null;
};

const NONE: UserAgentInfo = { browser: null, browser_version: null, os: null, os_version: null, device: null };

// ua-parser names the mobile builds apart ("Mobile Safari"); the device column already says
// "mobile", so one browser shows as one row in the browser breakdown.
const BROWSER_ALIASES: Record<string, string> = {
  'Mobile Safari': 'Safari',
  'Mobile Chrome': 'Chrome',
  'Mobile Firefox': 'Firefox',
};

// ua-parser 1.x names: pre-2016 Apple naming; Chromebooks report the Chromium build name.
const OS_ALIASES: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'Chrome OS' };

// ua-parser device types beyond the three we report: wearables browse like phones;
// TVs, consoles and embedded screens like desktops (big screen, no touch-first layout).
const DEVICE_CLASS: Record<string, UserAgentInfo['device']> = {
  mobile: 'mobile',
  wearable: 'mobile',
  tablet: 'tablet',
};

/** "124.0.6367.82" → "124.0": patch and build numbers split breakdowns into noise. */
export function majorMinor(version: string | undefined): string | null {
  if (!version) return null;
  const m = /^(\d+)(?:[._](\d+))?/.exec(version);
  if (!m) return version.slice(0, 20);
  return m[2] === undefined ? m[1]! : `${m[1]}.${m[2]}`;
}

/** Pure and costly (~40 µs): callers go through the cache in agent.ts. */
export function parseUserAgent(userAgent: string): UserAgentInfo {
  if (userAgent.trim() === '') return NONE;
  const r = new UAParser(userAgent).getResult();
  const browser = r.browser.name ? (BROWSER_ALIASES[r.browser.name] ?? r.browser.name) : null;
  // Nothing recognised: no basis for guessing a device either.
  if (!browser && !r.os.name && !r.device.type) return NONE;
  return {
    browser,
    browser_version: browser ? majorMinor(r.browser.version) : null,
    os: r.os.name ? (OS_ALIASES[r.os.name] ?? r.os.name) : null,
    os_version: r.os.name ? majorMinor(r.os.version) : null,
    device: r.device.type ? (DEVICE_CLASS[r.device.type] ?? 'desktop') : 'desktop',
  };
}
