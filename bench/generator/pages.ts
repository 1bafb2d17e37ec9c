// The synthetic site's ~2,000 distinct pages, most visited first (for a Zipf draw), with titles.
import { Random, Weighted } from './random.ts';

export type Page = { path: string; title: string };

const CORE = ['/', '/pricing', '/features', '/blog', '/docs', '/signup', '/login', '/about', '/contact',
  '/changelog', '/integrations', '/customers', '/download', '/careers', '/privacy', '/terms', '/security', '/status'];
const ADJ = ['fast', 'simple', 'private', 'open', 'modern', 'better', 'hidden', 'honest', 'tiny', 'real', 'quiet', 'smart'];
const NOUN = ['analytics', 'metrics', 'funnels', 'dashboards', 'cookies', 'pageviews', 'campaigns', 'goals', 'sessions',
  'referrers', 'exports', 'events', 'teams', 'reports', 'budgets', 'websites'];
const VERB = ['measure', 'track', 'grow', 'debug', 'compare', 'ship', 'understand', 'automate', 'audit', 'migrate'];
const DOC_SECTIONS = ['getting-started', 'tracking', 'api', 'self-hosting', 'goals', 'integrations', 'privacy', 'billing'];

const titleOf = (path: string) => {
  const last = path.split('/').filter(Boolean).pop() ?? 'home';
  const words = last.replace(/-/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} | Example`;
};

/** Deterministic page list: core pages, then blog posts, docs, products and integrations, shuffled by seed. */
export function buildPages(seed: number, count = 2000): Weighted<Page> {
  const rng = new Random(seed ^ 0x5eed);
  const paths = new Set<string>(CORE);
  while (paths.size < count) {
    const kind = rng.int(0, 9);
    if (kind < 4) paths.add(`/blog/how-to-${rng.pick(VERB)}-${rng.pick(ADJ)}-${rng.pick(NOUN)}`);
    else if (kind < 7) paths.add(`/docs/${rng.pick(DOC_SECTIONS)}/${rng.pick(VERB)}-${rng.pick(NOUN)}`);
    else if (kind < 9) paths.add(`/products/sku-${rng.int(10000, 99999)}`);
    else paths.add(`/integrations/${rng.pick(NOUN)}-${rng.pick(ADJ)}/`);
  }
  const [core, rest] = [CORE, [...paths].slice(CORE.length)];
  // Shuffle the long tail so popularity is not tied to generation order; core pages stay on top.
  for (let i = rest.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return Weighted.zipf([...core, ...rest].map((path) => ({ path, title: titleOf(path) })), 1.05);
}
