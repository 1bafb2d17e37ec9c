// Why this browser must not be tracked: local development, automation/headless browsers, or the visitor's opt-out.
import type { Config } from './config.ts';
import { read } from './storage.ts';

const LOCAL_HOST = /^(localhost|.*\.localhost|127(\.\d+){3}|\[::1\]|0\.0\.0\.0)$/;
const HEADLESS = /headless|phantomjs|slimerjs|puppeteer/i;

/** A reason to stay silent for the whole page life, or '' to track. */
export function skipReason(config: Config): string {
  if (!config.site) return 'data-site missing';
  if (!config.allowLocalhost && (LOCAL_HOST.test(location.hostname) || location.protocol == 'file:')) return 'localhost';
  const w = window as any;
  if (!config.allowAutomation && (navigator.webdriver || HEADLESS.test(navigator.userAgent) || w.Cypress || w.__nightmare || w.callPhantom)) {
    return 'automated browser';
  }
  return '';
}

/** The visitor's own opt-out (`localStorage.tern_ignore = "true"`), checked before every send. */
export function optedOut(): boolean {
  return read('tern_ignore') == 'true';
}
