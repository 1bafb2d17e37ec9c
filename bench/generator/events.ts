// The non-pageview events a visitor fires on a page: custom goals, downloads, clicks, purchases.
import { Random, Weighted } from './random.ts';

export type Action = {
  event_type: 'click' | 'form_submit' | 'download' | 'outbound' | 'purchase' | 'custom';
  event_name: string;
  properties: Record<string, string | number>;
};

const PLANS = ['free', 'pro', 'team'] as const;

const ACTIONS = Weighted.of<(r: Random) => Action>([
  [(r) => ({ event_type: 'custom', event_name: 'Signup', properties: { plan: r.pick(PLANS), method: r.pick(['email', 'google', 'github']) } }), 25],
  [(r) => ({ event_type: 'download', event_name: 'Download', properties: { file: r.pick(['tern-1.4.2.tar.gz', 'whitepaper.pdf', 'pricing.pdf', 'tern-setup.exe']) } }), 20],
  [(r) => ({ event_type: 'click', event_name: 'CTA Click', properties: { button: r.pick(['hero', 'nav', 'footer', 'pricing-table']) } }), 25],
  [(r) => ({ event_type: 'outbound', event_name: 'Outbound Link: Click', properties: { url: r.pick(['https://github.com/tern/tern', 'https://twitter.com/tern', 'https://docs.duckdb.org/']) } }), 15],
  [(r) => ({ event_type: 'form_submit', event_name: 'Contact', properties: { form: r.pick(['contact', 'demo-request', 'newsletter']) } }), 15],
]);

export function drawAction(rng: Random): Action {
  return ACTIONS.draw(rng)(rng);
}

const PRICES = Weighted.of<number>([[9, 30], [19, 25], [49, 20], [99, 12], [249, 8], [499, 5]]);

/** Orders are numbered; a few are sent twice (double-fired thank-you pages), reusing the id. */
export class Orders {
  private n = 0;
  private last: string | null = null;

  constructor(private readonly prefix: string) {}

  purchase(rng: Random, currency: string): Action & { revenue: number; currency: string; order_id: string } {
    const duplicate = this.last !== null && rng.chance(0.03);
    const order_id = duplicate ? this.last! : `${this.prefix}-${(++this.n).toString().padStart(7, '0')}`;
    this.last = order_id;
    const items = rng.int(1, 3);
    const revenue = Math.round((PRICES.draw(rng) * items - (rng.chance(0.5) ? 0.01 : 0)) * 100) / 100;
    return {
      event_type: 'purchase', event_name: 'Purchase', properties: { plan: rng.pick(PLANS), items },
      revenue, currency, order_id,
    };
  }
}
