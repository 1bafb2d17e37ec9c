// Bot and crawler detection by User-Agent: such traffic is acknowledged and dropped.
import { isbot } from 'isbot';

/**
 * True for crawlers, monitors, headless browsers and HTTP libraries (curl, python-requests…),
 * and for an empty or blank User-Agent: every real browser sends one (Plausible drops these too).
 */
export function isBotAgent(userAgent: string): boolean {
  if (userAgent.trim() === '') return true;
  return isbot(userAgent);
}
