// A User-Agent's bot verdict and parsed browser/OS/device, cached together: the event route needs both,
// and one cache lookup per event instead of two is ~1 µs less on its thread.
import { lru } from 'tiny-lru';
import { detectBot } from './bot.ts';
import { parseUserAgent, type UserAgentInfo } from './user-agent.ts';

export type Agent = { bot: boolean; info: UserAgentInfo };

// User agents repeat heavily: a few hundred cover most traffic.
const cache = lru<Agent>(10_000);
/** Longer ones are parsed from their first 1000 characters and not cached, so the cache's keys stay small. */
const MAX_UA_LENGTH = 1000;

const evaluate = (userAgent: string): Agent => ({
  bot: detectBot(userAgent),
  info: parseUserAgent(userAgent.length > MAX_UA_LENGTH ? userAgent.slice(0, MAX_UA_LENGTH) : userAgent),
});

/** The shared cached answer for a user agent: treat it as read-only. */
export function agentOf(userAgent: string): Agent {
  if (userAgent.length > MAX_UA_LENGTH) return evaluate(userAgent);
  let a = cache.get(userAgent);
  if (a === undefined) cache.set(userAgent, (a = evaluate(userAgent)));
  return a;
}

export const isBotAgent = (userAgent: string) => agentOf(userAgent).bot;
