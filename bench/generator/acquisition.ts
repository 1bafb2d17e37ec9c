// How a visit arrives: referrer and landing-page tags, in a realistic mix of direct, search,
// social, newsletter, paid, referral and AI-assistant traffic.
import { Random, Weighted } from './random.ts';

export type Arrival = { referrer?: string; query?: string };
type Make = (rng: Random, googleHost: string, month: string) => Arrival;

const SOCIAL = Weighted.zipf(['https://l.facebook.com/', 'https://t.co/', 'https://www.linkedin.com/',
  'https://www.reddit.com/', 'https://news.ycombinator.com/', 'https://l.instagram.com/', 'https://www.youtube.com/',
  'https://github.com/', 'https://www.tiktok.com/', 'https://www.pinterest.com/']);
const BLOGS = Weighted.zipf(Array.from({ length: 60 }, (_, i) =>
  `https://${['dev', 'indie', 'growth', 'saas', 'data', 'web'][i % 6]}${['weekly', 'notes', 'hub', 'log', 'digest'][i % 5]}${i}.com/posts/${i * 7}`));
const AI = Weighted.zipf(['https://chatgpt.com/', 'https://www.perplexity.ai/', 'https://claude.ai/', 'https://gemini.google.com/', 'https://copilot.microsoft.com/']);
const CAMPAIGNS = ['spring-launch', 'black-friday', 'webinar', 'retargeting-q3', 'brand'];

const MIX = Weighted.of<Make>([
  [() => ({}), 40],
  [(_r, google) => ({ referrer: `https://${google}/` }), 25],
  [(r, google) => ({ referrer: `https://${google}/`, query: `gclid=${r.hex(24)}&utm_campaign=${r.pick(CAMPAIGNS)}` }), 5],
  [() => ({ referrer: 'https://www.bing.com/' }), 3],
  [() => ({ referrer: 'https://duckduckgo.com/' }), 2],
  [(r) => ({ referrer: SOCIAL.draw(r) }), 10],
  [(r, _g, month) => ({ query: `utm_source=newsletter&utm_medium=email&utm_campaign=${month}${r.chance(0.3) ? '&utm_content=footer' : ''}` }), 5],
  [(r) => ({ referrer: BLOGS.draw(r) }), 6],
  [(r) => {
    const referrer = AI.draw(r);
    // ChatGPT tags its outbound links; the other assistants only send a Referer.
    return { referrer, query: referrer.includes('chatgpt') && r.chance(0.7) ? 'utm_source=chatgpt.com' : undefined };
  }, 2],
  [(r) => ({ referrer: 'https://l.facebook.com/', query: `utm_source=facebook&utm_medium=paid_social&utm_campaign=${r.pick(CAMPAIGNS)}&fbclid=${r.hex(20)}` }), 2],
]);

/** Referrer and landing-URL query string of a new visit. */
export function drawArrival(rng: Random, googleHost: string, isoMonth: string): Arrival {
  return MIX.draw(rng)(rng, googleHost, `newsletter-${isoMonth}`);
}
