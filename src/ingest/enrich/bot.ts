// Bot and crawler detection by User-Agent: such traffic is acknowledged and dropped.
import { isbot } from 'isbot';
import { lru } from 'tiny-lru';

// isbot is one big regular expression; real traffic repeats a few thousand user agents.
const cache = lru<boolean>(20_000);

/**
 * True for crawlers, monitors, headless browsers and HTTP libraries (curl, python-requests…),
 * and for an empty or blank User-Agent: every real browser sends one (Plausible drops these too).
 */
export function isBotAgent(userAgent: string): boolean {
  let v = cache.get(userAgent);
  if (v === undefined) {
    v = userAgent.trim() === '' || isbot(userAgent);
    cache.set(userAgent, v);
  }
  return v;
}
