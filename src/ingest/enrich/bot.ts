// Bot and crawler detection by User-Agent: such traffic is acknowledged and dropped.
import { isbot } from 'isbot';

/**
 * True for crawlers, monitors, headless browsers and HTTP libraries (curl, python-requests…),
 * and for an empty or blank User-Agent: every real browser sends one (Plausible drops these too).
 * isbot is one big regular expression: callers go through the cache in agent.ts.
 */
export function detectBot(userAgent: string): boolean {
  return userAgent.trim() === '' || isbot(userAgent);
}
